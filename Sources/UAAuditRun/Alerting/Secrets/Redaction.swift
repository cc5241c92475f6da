import FoundationEssentials
import UAAuditInput

/// Keeps webhook secrets out of everything uaaudit prints, logs or writes.
///
/// CONTRACTS: a webhook URL is secret except its scheme, host and port. ``url(_:)`` shows it
/// as `scheme://host[:port]/…#abcdef`, where `abcdef` is the start of a SHA-256 of the whole
/// URL (it tells channels apart and reveals nothing of a secret worth the name). Path, query,
/// user info and fragment are never shown, whatever they look like.
///
/// ``scrub(_:secrets:)`` removes a URL's secret parts from free text, such as a service's
/// answer that echoes them: every path segment and the whole path, every query name and value
/// and the whole query, user name, password and fragment (``secrets(in:)``), in every spelling
/// an answer may quote them in (``variants(of:)``: as given, percent-decoded, percent-encoded
/// in upper or lower case, JSON-escaped).
package enum Redaction {
    static let mask = "***"
    /// Hex digits of the hash that ``url(_:)`` shows.
    static let hashLength = 6
    /// Shorter pieces are not hunted in free text (a `v=1` would mask every digit 1).
    static let scrubMinimum = 3

    /// The URL as uaaudit shows it: `scheme://host[:port]/…#abcdef`; text that does not parse
    /// as a URL with a host is `***#abcdef`.
    static func url(_ text: String) -> String {
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

    /// The secret strings inside a URL (every path segment and query name but those in
    /// `public`, the whole path when it has a secret segment, every query value, the whole raw
    /// query, user, password and fragment), as given and percent-decoded, longest first.
    static func secrets(in text: String, except public: Set<String> = []) -> [String] {
        guard let parts = URLComponents(string: text) else { return [text] }
        var found: [String] = []
        found += [parts.percentEncodedUser, parts.percentEncodedPassword, parts.percentEncodedFragment]
            .compactMap { $0 }
        if let query = parts.percentEncodedQuery { found.append(query) }
        for item in parts.percentEncodedQueryItems ?? [] {
            if let value = item.value { found.append(value) }
            if !`public`.contains(item.name) { found.append(item.name) }
        }
        let segments = parts.percentEncodedPath.split(separator: "/").map(String.init).filter { !`public`.contains($0) }
        found += segments
        if !segments.isEmpty { found.append(parts.percentEncodedPath) }
        found += found.compactMap(PercentEncoding.decode)
        return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// `text` with every occurrence of each secret of at least ``scrubMinimum`` characters
    /// replaced by `***`, longest first.
    static func scrub(_ text: String, secrets: [String]) -> String {
        var out = text
        let all = Set(secrets.filter { $0.count >= scrubMinimum }.flatMap(variants(of:)))
        for secret in all.sorted(by: { $0.count != $1.count ? $0.count > $1.count : $0 < $1 })
        where secret.count >= scrubMinimum {
            out = out.replacing(secret, with: mask)
        }
        return out
    }

    /// The spellings in which an answer may quote `secret`: as given (its escapes in either
    /// case), percent-decoded, form-decoded (`+` as a space),
    /// percent-encoded (upper- and lower-case hex, `+` for a space), and each of those
    /// JSON-escaped (`\/` for `/`, `\u0026` for `&`, `\u003c`/`\u003e`, `\u003d` for `=`).
    static func variants(of secret: String) -> [String] {
        var plain: Set<String> = [secret, lowercasedEscapes(secret)]
        if let decoded = PercentEncoding.decode(secret) { plain.insert(decoded) }
        // A query value as a form decoder reads it: `+` is a space.
        let form = secret.replacing("+", with: " ")
        plain.insert(form)
        if let decoded = PercentEncoding.decode(form) { plain.insert(decoded) }
        for base in Array(plain) {
            let encoded = PercentEncoding.encodeAllButUnreserved(base)
            let plus = encoded.replacing("%20", with: "+")
            plain.formUnion([encoded, lowercasedEscapes(encoded), plus, lowercasedEscapes(plus)])
        }
        var out = plain
        for text in plain {
            out.insert(text.replacing("/", with: "\\/"))
            var unicode = text
            for (char, escape) in [("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("=", "\\u003d")] {
                unicode = unicode.replacing(char, with: escape)
            }
            out.insert(unicode)
            out.insert(unicode.replacing("/", with: "\\/"))
        }
        return Array(out)
    }

    /// `%2F` → `%2f`: only the hex digits after a `%`.
    static func lowercasedEscapes(_ text: String) -> String {
        var out = ""
        var pending = 0
        for char in text {
            if char == "%" {
                pending = 2
                out.append(char)
            } else if pending > 0 {
                pending -= 1
                out += char.lowercased()
            } else {
                out.append(char)
            }
        }
        return out
    }
}
