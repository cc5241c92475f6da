import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct AlertChannelTests {
    static func decode(_ json: String) throws -> AlertChannel {
        try JSONDecoder().decode(AlertChannel.self, from: Data(json.utf8))
    }

    static let shapes: [(String, AlertChannel)] = [
        (
            #"{"url": "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K"}"#,
            AlertChannel(url: .literal("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K"))
        ),
        (
            #"{"kind": "wecom", "url_env": "WECOM_URL", "msgtype": "text", "mentioned_list": ["@all"], "mentioned_mobile_list": ["13800000000"]}"#,
            AlertChannel(
                kind: .wecom, url: .environment("WECOM_URL"), msgtype: .text, mentionedList: ["@all"],
                mentionedMobileList: ["13800000000"])
        ),
        (
            #"{"url_file": "/etc/uaaudit/ding.url", "secret_env": "DING_SECRET"}"#,
            AlertChannel(url: .file("/etc/uaaudit/ding.url"), secret: .environment("DING_SECRET"))
        ),
        (
            #"{"kind": "feishu", "url": "https://open.feishu.cn/open-apis/bot/v2/hook/x", "secret_file": "/s"}"#,
            AlertChannel(
                kind: .feishu, url: .literal("https://open.feishu.cn/open-apis/bot/v2/hook/x"), secret: .file("/s"))
        ),
        (
            #"{"kind": "alertmanager", "url": "http://127.0.0.1:9093"}"#,
            AlertChannel(kind: .alertmanager, url: .literal("http://127.0.0.1:9093"))
        ),
    ]

    @Test(arguments: shapes)
    func decodesEveryShapeAndEncodesItBack(json: String, channel: AlertChannel) throws {
        let decoded = try Self.decode(json)
        #expect(decoded == channel)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try Self.decode(String(decoding: try encoder.encode(decoded), as: UTF8.self)) == channel)
    }

    @Test func encodesTheDocumentedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let channel = AlertChannel(
            kind: .wecom, url: .environment("U"), msgtype: .text, mentionedList: ["a"], mentionedMobileList: ["1"])
        #expect(
            String(decoding: try encoder.encode(channel), as: UTF8.self)
                == #"{"kind":"wecom","mentioned_list":["a"],"mentioned_mobile_list":["1"],"msgtype":"text","url_env":"U"}"#
        )
        let dingtalk = AlertChannel(kind: .dingtalk, url: .literal("https://x/"), secret: .file("/s"))
        #expect(
            String(decoding: try encoder.encode(dingtalk), as: UTF8.self)
                == #"{"kind":"dingtalk","secret_file":"/s","url":"https://x/"}"#)
    }

    static let invalid: [(String, String)] = [
        (#"{}"#, "alert channel (top level): give exactly one of url, url_env and url_file"),
        (#"{"url": "a", "url_env": "B"}"#, "alert channel (top level): give exactly one of url, url_env and url_file"),
        (
            #"{"url": "a", "secret": "s", "secret_env": "S"}"#,
            "alert channel (top level): give at most one of secret, secret_env and secret_file"
        ),
        (
            #"{"url": "a", "kind": "teams"}"#,
            "alert channel (top level): unknown webhook kind 'teams'; kinds are wecom, dingtalk, feishu, slack, generic, alertmanager"
        ),
        (
            #"{"url": "a", "secret-env": "S"}"#,
            "alert channel (top level): unknown key 'secret-env'; keys are kind, url, secret, msgtype, url_env, url_file, secret_env, secret_file, mentioned_list, mentioned_mobile_list"
        ),
        (
            #"{"url": "a", "kind": "wecom", "secret": "s"}"#,
            "alert channel (top level): a wecom webhook takes no signing secret (only dingtalk and feishu do)"
        ),
        (
            #"{"url": "a", "kind": "slack", "msgtype": "text"}"#,
            "alert channel (top level): msgtype does not apply to a slack webhook (only to wecom)"
        ),
        (
            #"{"url": "a", "kind": "wecom", "mentioned_list": ["@all"]}"#,
            #"alert channel (top level): mentioned_list takes "msgtype": "text" (WeCom markdown cannot @ people), not '@all'"#
        ),
        (#"{"url": "a", "msgtype": "html"}"#, "alert channel (top level): msgtype takes markdown or text, not 'html'"),
    ]

    @Test(arguments: invalid)
    func malformedChannelsSayWhatIsWrong(json: String, message: String) {
        do {
            _ = try Self.decode(json)
            Issue.record("decoded \(json)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func anErrorInAListNamesTheChannel() throws {
        struct Config: Decodable { var alerts: [AlertChannel] }
        do {
            _ = try JSONDecoder().decode(Config.self, from: Data(#"{"alerts": [{"url": "a"}, {}]}"#.utf8))
            Issue.record("decoded")
        } catch {
            #expect("\(error)" == "alert channel alerts[1]: give exactly one of url, url_env and url_file")
        }
    }

    static let inferred: [(String, ChannelKind?)] = [
        ("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K", .wecom),
        ("https://oapi.dingtalk.com/robot/send?access_token=T", .dingtalk),
        ("https://open.feishu.cn/open-apis/bot/v2/hook/H", .feishu),
        ("https://open.larksuite.com/open-apis/bot/v2/hook/H", .feishu),
        ("https://HOOKS.slack.com/services/A/B/C", .slack),
        ("http://127.0.0.1:9093", nil),
        ("https://qyapi.weixin.qq.com.evil.example/x", nil),
    ]

    @Test(arguments: inferred)
    func kindIsInferredFromTheHostOnly(url: String, kind: ChannelKind?) throws {
        do {
            let resolved = try AlertChannel(url: .literal(url)).resolve(environment: [:])
            #expect(resolved.kind == kind)
        } catch {
            #expect(kind == nil)
            #expect(error == .kindNotInferred(shown: Redaction.url(url)))
        }
    }

    @Test func resolvesFromEnvironmentAndFilesWithoutShowingTheValues() throws {
        let dir = try TempDirectory()
        let urlFile = try dir.write("url", Array("https://oapi.dingtalk.com/robot/send?access_token=TOKEN1234\n".utf8))
        let channel = AlertChannel(url: .file(urlFile), secret: .environment("DING_SECRET"))
        let resolved = try channel.resolve(environment: ["DING_SECRET": "SECabcdef"])
        #expect(resolved.kind == .dingtalk)
        #expect(resolved.secret == "SECabcdef")
        #expect(resolved.url.absoluteString == "https://oapi.dingtalk.com/robot/send?access_token=TOKEN1234")
        #expect(
            resolved.description
                == "dingtalk \(Redaction.url("https://oapi.dingtalk.com/robot/send?access_token=TOKEN1234"))")
        #expect(resolved.description.hasPrefix("dingtalk https://oapi.dingtalk.com/…#"))
        #expect(resolved.secrets == ["SECabcdef", "access_token=TOKEN1234", "TOKEN1234"])
        #expect(channel.description == "webhook (URL from file \(urlFile))")

        #expect(throws: AlertError.environmentUnset(name: "DING_SECRET", what: "the dingtalk signing secret")) {
            try channel.resolve(environment: [:])
        }
        #expect(throws: AlertError.emptyFile(path: try dir.write("empty", Array(" \n".utf8)), what: "the webhook URL"))
        {
            try AlertChannel(url: .file(dir.path("empty"))).resolve(environment: [:])
        }
        #expect(
            throws: AlertError.unreadableFile(
                path: dir.path("missing"), what: "the webhook URL", reason: "No such file or directory")
        ) {
            try AlertChannel(url: .file(dir.path("missing"))).resolve(environment: [:])
        }
        #expect(throws: AlertError.badURL(shown: Redaction.url("ftp:/x?key=SECRET"))) {
            try AlertChannel(kind: .generic, url: .literal("ftp:/x?key=SECRET")).resolve(environment: [:])
        }
        #expect(throws: AlertError.badURL(shown: Redaction.url("file:///etc/passwd"))) {
            try AlertChannel(kind: .generic, url: .literal("file:///etc/passwd")).resolve(environment: [:])
        }
    }

    @Test func describingAChannelNeverShowsItsSecrets() {
        let channel = AlertChannel(
            url: .literal("https://oapi.dingtalk.com/robot/send?access_token=TOKEN1234"), secret: .literal("SECabc"))
        var dumped = ""
        dump(channel, to: &dumped)
        var dumpedResolved = ""
        if let resolved = try? channel.resolve(environment: [:]) { dump(resolved, to: &dumpedResolved) }
        #expect(dumpedResolved.contains("oapi.dingtalk.com"))
        let texts = [
            channel.description, "\(channel)", String(reflecting: channel), "\(channel.secret!)", dumped,
            dumpedResolved,
        ]
        for text in texts {
            #expect(!text.contains("TOKEN1234") && !text.contains("SECabc"), "\(text)")
        }
        #expect(
            channel.description
                == "webhook \(Redaction.url("https://oapi.dingtalk.com/robot/send?access_token=TOKEN1234"))")
    }
}

extension AlertChannelTests {
    @Test func keysAreStableDistinctAndSecretFree() {
        let a = AlertChannel(url: .literal("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=AAAA-1111"))
        let b = AlertChannel(url: .literal("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=BBBB-2222"))
        #expect(a.key.hasPrefix("webhook https://qyapi.weixin.qq.com/…#"))
        #expect(a.key.count == b.key.count && a.key != b.key)
        #expect(
            a.key == AlertChannel(url: .literal("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=AAAA-1111")).key)
        #expect(!a.key.contains("AAAA") && !b.key.contains("BBBB"))
        #expect(AlertChannel(kind: .slack, url: .environment("S")).key.hasPrefix("slack (URL from $S) #"))
    }
}
