import Foundation

/// Keeps webhook secrets out of everything uaaudit prints, logs or writes.
///
/// A webhook URL carries its secret: WeCom's `key=`, DingTalk's `access_token=`, the path of a
/// Slack or Feishu hook. ``url(_:)`` shows a URL with its scheme, host, port and path, but with
/// every query value, any user info, the fragment, each path segment after `hook`, `hooks` or
/// `services`, and any path segment that looks like a token replaced by `***`.
/// ``scrub(_:secrets:)`` removes known secret values from free text, such as a service's answer.
package enum Redaction {
    package static let mask = "***"

    /// Path segments after which every segment is the hook's secret id.
    static let hookMarkers: Set<String> = ["hook", "hooks", "services"]

    /// The URL with its secrets masked; text that does not parse as a URL is masked whole.
    package static func url(_ text: String) -> String {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme, let host = parts.host,
            !host.isEmpty
        else { return mask }
        var out = scheme + "://"
        if parts.percentEncodedUser != nil || parts.percentEncodedPassword != nil { out += mask + "@" }
        out += host.contains(":") ? "[\(host)]" : host
        if let port = parts.port { out += ":\(port)" }
        out += maskedPath(parts.percentEncodedPath).joined(separator: "/")
        if let items = parts.percentEncodedQueryItems {
            out += "?" + items.map { $0.value == nil ? $0.name : "\($0.name)=\(mask)" }.joined(separator: "&")
        }
        if parts.percentEncodedFragment != nil { out += "#" + mask }
        return out
    }

    /// The secret strings inside a URL, as given and percent-decoded, longest first.
    package static func secrets(in text: String) -> [String] {
        guard let parts = URLComponents(string: text) else { return [text] }
        var found: [String] = []
        found += [parts.percentEncodedUser, parts.percentEncodedPassword, parts.percentEncodedFragment]
            .compactMap { $0 }
        found += (parts.percentEncodedQueryItems ?? []).compactMap(\.value)
        let segments = parts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let masked = maskedPath(parts.percentEncodedPath)
        for (segment, shown) in zip(segments, masked) where shown == mask { found.append(segment) }
        found += found.compactMap { $0.removingPercentEncoding }
        return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// `text` with every occurrence of each secret of at least 4 characters replaced by `***`.
    ///
    /// Shorter values (a `v=1` in a query) are masked in URLs but not hunted in free text.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        var out = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= 4 {
            out = out.replacingOccurrences(of: secret, with: mask)
        }
        return out
    }

    /// The path's segments (the first is the empty one before the leading `/`), secrets masked.
    static func maskedPath(_ path: String) -> [String] {
        var afterMarker = false
        return path.split(separator: "/", omittingEmptySubsequences: false).map { piece in
            let segment = String(piece)
            if segment.isEmpty { return segment }
            if afterMarker || looksLikeToken(segment) { return mask }
            if hookMarkers.contains(segment.lowercased()) { afterMarker = true }
            return segment
        }
    }

    /// 16 or more characters of letters, digits, `-`, `_`, `.` or `%`, with a digit among them.
    static func looksLikeToken(_ segment: String) -> Bool {
        segment.utf8.count >= 16 && segment.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }
            && segment.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || $0 == 0x25
            }
    }
}
