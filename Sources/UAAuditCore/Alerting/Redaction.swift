import Foundation

/// Keeps webhook secrets out of everything uaaudit prints, logs or writes.
///
/// CONTRACTS: a webhook URL is secret except its scheme, host and port. ``url(_:)`` shows it
/// as `scheme://host[:port]/…#abcdef`, where `abcdef` is the start of a SHA-256 of the whole
/// URL (it tells channels apart and reveals nothing of a secret worth the name). Path, query,
/// user info and fragment are never shown, whatever they look like.
///
/// ``scrub(_:secrets:)`` removes a URL's secret parts from free text, such as a service's
/// answer that echoes them: every path segment, query value, user name, password and
/// fragment (``secrets(in:)``), as given and percent-decoded.
package enum Redaction {
    package static let mask = "***"
    /// Hex digits of the hash that ``url(_:)`` shows.
    static let hashLength = 6
    /// Shorter pieces are not hunted in free text (a `v=1` would mask every digit 1).
    static let scrubMinimum = 3

    /// The URL as uaaudit shows it: `scheme://host[:port]/…#abcdef`; text that does not parse
    /// as a URL with a host is `***#abcdef`.
    package static func url(_ text: String) -> String {
        let tag = "#" + SHA256.hex(SHA256.hash(Array(text.utf8))).prefix(hashLength)
        guard let parts = URLComponents(string: text), let scheme = parts.scheme, let host = parts.host,
            !host.isEmpty
        else { return mask + tag }
        var out = scheme.lowercased() + "://"
        // URLComponents keeps an IPv6 host's brackets on some platforms and not on others.
        out += host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = parts.port { out += ":\(port)" }
        return out + "/…" + tag
    }

    /// The secret strings inside a URL (every path segment but those in `public`, every query
    /// value, user, password and fragment), as given and percent-decoded, longest first.
    package static func secrets(in text: String, except public: Set<String> = []) -> [String] {
        guard let parts = URLComponents(string: text) else { return [text] }
        var found: [String] = []
        found += [parts.percentEncodedUser, parts.percentEncodedPassword, parts.percentEncodedFragment]
            .compactMap { $0 }
        found += (parts.percentEncodedQueryItems ?? []).compactMap(\.value)
        found += parts.percentEncodedPath.split(separator: "/").map(String.init).filter { !`public`.contains($0) }
        found += found.compactMap { $0.removingPercentEncoding }
        return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// `text` with every occurrence of each secret of at least ``scrubMinimum`` characters
    /// replaced by `***`, longest first.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        var out = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= scrubMinimum {
            out = out.replacingOccurrences(of: secret, with: mask)
        }
        return out
    }
}
