import FoundationEssentials
import UAAuditInput

/// One place to send alerts, as the command line or a config file gives it.
///
/// Its JSON form (a config file holds a list of them; unknown keys are errors):
///
///     {"kind": "wecom", "url_env": "UAAUDIT_WECOM_URL", "msgtype": "text",
///      "mentioned_list": ["@all"], "mentioned_mobile_list": ["13800000000"]}
///     {"url": "https://oapi.dingtalk.com/robot/send?access_token=…", "secret_file": "/etc/uaaudit/ding"}
///     {"kind": "alertmanager", "url": "http://127.0.0.1:9093"}
///
/// `kind` may be left out when the URL's host tells it. Exactly one of `url`, `url_env`
/// (an environment variable) and `url_file` (a file holding the URL); at most one of `secret`,
/// `secret_env`, `secret_file` (the signing secret of a dingtalk or feishu robot). `msgtype`
/// (`markdown`, the default, or `text`) and the mention lists are for wecom; the mention lists
/// need `"msgtype": "text"`, the only WeCom message type that can @ people.
///
/// The channel is resolved (environment read, files read, kind inferred) when it is used, so
/// a config file can be checked without the secrets at hand; its description never shows them.
package struct AlertChannel: Codable, Hashable, Sendable, CustomStringConvertible {
    package var kind: ChannelKind?
    package var url: ConfiguredValue
    package var secret: ConfiguredValue?
    var msgtype: WeComMessageType?
    var mentionedList: [String]
    var mentionedMobileList: [String]

    package init(
        kind: ChannelKind? = nil, url: ConfiguredValue, secret: ConfiguredValue? = nil,
        msgtype: WeComMessageType? = nil, mentionedList: [String] = [], mentionedMobileList: [String] = []
    ) {
        self.kind = kind
        self.url = url
        self.secret = secret
        self.msgtype = msgtype
        self.mentionedList = mentionedList
        self.mentionedMobileList = mentionedMobileList
    }

    /// The URL, the secret and the kind, ready to send to; checks the options against the kind.
    package func resolve(environment: [String: String]) throws(AlertError) -> ResolvedChannel {
        let text = try url.resolve(environment: environment, what: "the webhook URL")
        let shown = Redaction.url(text)
        guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty,
            parsed.port.map({ (1...65_535).contains($0) }) ?? true,
            !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true })
        else { throw AlertError.badURL(shown: shown) }
        guard let kind = kind ?? ChannelKind.inferred(fromHost: host) else {
            throw AlertError.kindNotInferred(shown: shown)
        }
        try checkOptions(for: kind)
        let secretValue = try secret?.resolve(environment: environment, what: "the \(kind.rawValue) signing secret")
        var secrets = Redaction.secrets(in: text, except: kind.publicURLParts)
        if let secretValue { secrets.insert(secretValue, at: 0) }
        return ResolvedChannel(
            kind: kind, url: parsed, shownURL: shown, secret: secretValue, secrets: secrets,
            msgtype: msgtype ?? .markdown, mentionedList: mentionedList, mentionedMobileList: mentionedMobileList)
    }

    /// The options that make no sense for `kind`.
    func checkOptions(for kind: ChannelKind) throws(AlertError) {
        if secret != nil, !kind.takesSecret { throw AlertError.secretNotSupported(kind: kind) }
        if kind != .wecom {
            if msgtype != nil { throw AlertError.optionNotSupported(option: "msgtype", kind: kind, only: "wecom") }
            if !mentionedList.isEmpty || !mentionedMobileList.isEmpty {
                throw AlertError.optionNotSupported(option: "mentioned_list", kind: kind, only: "wecom")
            }
        } else if msgtype != .text, !mentionedList.isEmpty || !mentionedMobileList.isEmpty {
            throw AlertError.badOption(
                option: "mentioned_list", value: (mentionedList + mentionedMobileList).joined(separator: ","),
                expected: "\"msgtype\": \"text\" (WeCom markdown cannot @ people)")
        }
    }

    /// A name for the channel that is safe to store and stable from run to run (the cron
    /// mode keeps per channel what it has not delivered): the description, then 8 hex digits
    /// of a SHA-256 of the whole channel, so that two robots behind one redacted URL differ.
    package var key: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(self)).map { [UInt8]($0) } ?? Array(description.utf8)
        return "\(description) #\(SHA256.hex(SHA256.hash(bytes)).prefix(8))"
    }

    package var description: String {
        let kindText = kind?.rawValue ?? "webhook"
        switch url {
        case .literal(let text): return "\(kindText) \(Redaction.url(text))"
        default: return "\(kindText) (URL from \(url))"
        }
    }

    // MARK: Codable

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, url, secret, msgtype
        case urlEnv = "url_env"
        case urlFile = "url_file"
        case secretEnv = "secret_env"
        case secretFile = "secret_file"
        case mentionedList = "mentioned_list"
        case mentionedMobileList = "mentioned_mobile_list"
    }

    package init(from decoder: any Decoder) throws {
        let place = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let path = place.hasPrefix(".") ? String(place.dropFirst()) : (place.isEmpty ? "(top level)" : place)
        func invalid(_ message: String) -> AlertError { AlertError.invalidChannel(path: path, message: message) }

        let known = Set(CodingKeys.allCases.map(\.rawValue))
        let all = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = all.first(where: { !known.contains($0) }) {
            throw invalid(
                "unknown key '\(unknown)'; keys are \(CodingKeys.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try c.decodeIfPresent(String.self, forKey: .kind) {
            guard let parsed = ChannelKind(rawValue: text) else {
                throw invalid(AlertError.unknownKind(text).description)
            }
            kind = parsed
        }
        let urls: [ConfiguredValue] = [
            try c.decodeIfPresent(String.self, forKey: .url).map(ConfiguredValue.literal),
            try c.decodeIfPresent(String.self, forKey: .urlEnv).map(ConfiguredValue.environment),
            try c.decodeIfPresent(String.self, forKey: .urlFile).map(ConfiguredValue.file),
        ].compactMap { $0 }
        guard urls.count == 1 else { throw invalid("give exactly one of url, url_env and url_file") }
        url = urls[0]
        let secrets: [ConfiguredValue] = [
            try c.decodeIfPresent(String.self, forKey: .secret).map(ConfiguredValue.literal),
            try c.decodeIfPresent(String.self, forKey: .secretEnv).map(ConfiguredValue.environment),
            try c.decodeIfPresent(String.self, forKey: .secretFile).map(ConfiguredValue.file),
        ].compactMap { $0 }
        guard secrets.count <= 1 else { throw invalid("give at most one of secret, secret_env and secret_file") }
        secret = secrets.first
        if let text = try c.decodeIfPresent(String.self, forKey: .msgtype) {
            guard let parsed = WeComMessageType(rawValue: text) else {
                throw invalid("msgtype takes markdown or text, not '\(text)'")
            }
            msgtype = parsed
        }
        mentionedList = try c.decodeIfPresent([String].self, forKey: .mentionedList) ?? []
        mentionedMobileList = try c.decodeIfPresent([String].self, forKey: .mentionedMobileList) ?? []
        if let kind {
            do {
                try checkOptions(for: kind)
            } catch {
                throw invalid(error.description)
            }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(kind, forKey: .kind)
        switch url {
        case .literal(let value): try c.encode(value, forKey: .url)
        case .environment(let name): try c.encode(name, forKey: .urlEnv)
        case .file(let path): try c.encode(path, forKey: .urlFile)
        }
        switch secret {
        case .literal(let value): try c.encode(value, forKey: .secret)
        case .environment(let name): try c.encode(name, forKey: .secretEnv)
        case .file(let path): try c.encode(path, forKey: .secretFile)
        case nil: break
        }
        try c.encodeIfPresent(msgtype, forKey: .msgtype)
        if !mentionedList.isEmpty { try c.encode(mentionedList, forKey: .mentionedList) }
        if !mentionedMobileList.isEmpty { try c.encode(mentionedMobileList, forKey: .mentionedMobileList) }
    }

    /// Any key, to find the ones ``CodingKeys`` does not know.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
