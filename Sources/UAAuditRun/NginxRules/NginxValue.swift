/// A value nginx computes for one request, as far as the UA alone decides it.
///
/// `text` is nil when the value depends on something other than the UA (the client's address,
/// the URI, a variable uaaudit does not evaluate); `because` holds the configuration lines that
/// decided it (a map's entry, an `if` whose condition held around a `set`), and `fromUA` says
/// whether the UA took part in deciding it.
struct NginxValue: Equatable, Sendable {
    var text: String?
    var because: [NginxUAAudit.Line] = []
    var fromUA = false
    /// The variables it depends on that uaaudit cannot know, when `text` is nil.
    var dependsOn: [String] = []

    static func known(_ text: String) -> NginxValue { NginxValue(text: text) }

    /// Joins `other`'s reasons into this value's.
    mutating func absorb(_ other: NginxValue) {
        for line in other.because where !because.contains(line) { because.append(line) }
        fromUA = fromUA || other.fromUA
        for name in other.dependsOn where !dependsOn.contains(name) { dependsOn.append(name) }
    }
}

/// The pieces of an nginx "complex value" (`"$a-${b}x"`): literal text and variable names.
enum NginxTemplate {
    enum Piece: Equatable {
        case text(String)
        case variable(String)
    }

    /// Splits `source` as nginx's script compiler does: `$name` (letters, digits, `_`),
    /// `${name}`, and `$1`…`$9` captures; anything else is text.
    static func pieces(_ source: String) -> [Piece] {
        let bytes = Array(source.utf8)
        var result: [Piece] = []
        var text: [UInt8] = []
        var i = 0
        func isName(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count else {
                text.append(bytes[i])
                i += 1
                continue
            }
            var j = i + 1
            var name: [UInt8] = []
            if bytes[j] >= 0x31 && bytes[j] <= 0x39 {
                name = [bytes[j]]
                j += 1
            } else if bytes[j] == UInt8(ascii: "{") {
                j += 1
                while j < bytes.count, bytes[j] != UInt8(ascii: "}") {
                    name.append(bytes[j])
                    j += 1
                }
                j += 1
            } else {
                while j < bytes.count, isName(bytes[j]) {
                    name.append(bytes[j])
                    j += 1
                }
            }
            guard !name.isEmpty else {
                text.append(bytes[i])
                i += 1
                continue
            }
            if !text.isEmpty { result.append(.text(String(decoding: text, as: UTF8.self))) }
            text = []
            result.append(.variable(String(decoding: name, as: UTF8.self).lowercased()))
            i = j
        }
        if !text.isEmpty { result.append(.text(String(decoding: text, as: UTF8.self))) }
        return result
    }
}
