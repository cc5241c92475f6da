/// A JSON document as plain values, for the few places that walk JSON without a fixed shape
/// (unknown config keys, numeric limits, a service's answer, the state migration).
///
/// FoundationEssentials has `JSONDecoder` but no `JSONSerialization`; this small parser takes
/// its place and says where a syntax error is (byte offset), which `JSONDecoder` does not.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as written, and its value.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A syntax error: what, and the byte offset where it was found.
    package struct SyntaxError: Error, Equatable, Sendable {
        var what: String
        var offset: Int
    }

    /// The value of `bytes`, which must hold one JSON value (any kind) and white space.
    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        try parser.start()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.at < bytes.count { throw SyntaxError(what: "garbage at end", offset: parser.at) }
        return value
    }

    /// The value of `bytes`, and the place of the first key given twice in one object, in
    /// document order (`threshold`, `insight.client_key`, `rules[1].class`): `JSONDecoder` keeps
    /// one of the two without a word, so a config's other setting would be lost in silence.
    /// Keys are compared as decoded (`"a"` and `"\u0061"` are one key, as to the decoder).
    package static func parse(_ bytes: [UInt8], firstDuplicate: inout String?) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        try parser.start()
        parser.path = []
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.at < bytes.count { throw SyntaxError(what: "garbage at end", offset: parser.at) }
        firstDuplicate = parser.duplicate
        return value
    }

    /// The value of a number, nil for anything else.
    package var double: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    package var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// Compact JSON, object keys sorted.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string, quoted, as JSONEncoder writes it (control bytes `\u00XX`).
    package static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case ..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0
        /// Where the parser is (object keys and `[index]`), when duplicates are looked for.
        var path: [String]? = nil
        /// The first duplicate key's place.
        var duplicate: String? = nil
        /// Deeper nesting is refused rather than recursed into.
        static let maxDepth = 512

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// Past a UTF-8 byte order mark (which the decoder takes too); UTF-16 and UTF-32 are
        /// named, not taken for a syntax error at byte 0.
        mutating func start() throws(SyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                at = 3
            } else if bytes.count >= 2,
                bytes[0] == 0 || bytes[1] == 0 || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            {
                throw SyntaxError(what: "UTF-16 or UTF-32 text (save the file as UTF-8)", offset: 0)
            }
        }

        /// The place of `key` in the object the parser is in.
        func place(_ key: String) -> String {
            let inside = (path ?? []).joined()
            return inside.isEmpty ? key : inside + "." + key
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        func fail(_ what: String = "invalid value") -> SyntaxError {
            at >= bytes.count
                ? SyntaxError(what: "unexpected end of file", offset: bytes.count) : SyntaxError(what: what, offset: at)
        }

        mutating func expect(_ byte: UInt8) throws(SyntaxError) {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { throw fail() }
            at += 1
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            skipSpace()
            guard at < bytes.count else { throw fail() }
            guard depth < Self.maxDepth else { throw fail("too deeply nested") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    if at < bytes.count, bytes[at] == UInt8(ascii: "}"), !members.isEmpty {
                        throw fail("a comma before '}' (JSON has none after the last member)")
                    }
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail() }
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    if path != nil {
                        if members[key] != nil, duplicate == nil { duplicate = place(key) }
                        path!.append(path!.isEmpty ? key : "." + key)
                    }
                    let member = try value(depth: depth + 1)
                    if path != nil { path!.removeLast() }
                    if members[key] == nil { members[key] = member }
                    skipSpace()
                    guard at < bytes.count else { throw fail() }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "}") {
                        at += 1
                        return .object(members)
                    } else {
                        throw fail()
                    }
                }
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONValue] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return .array(items)
                }
                while true {
                    skipSpace()
                    if at < bytes.count, bytes[at] == UInt8(ascii: "]"), !items.isEmpty {
                        throw fail("a comma before ']' (JSON has none after the last item)")
                    }
                    if path != nil { path!.append("[\(items.count)]") }
                    items.append(try value(depth: depth + 1))
                    if path != nil { path!.removeLast() }
                    skipSpace()
                    guard at < bytes.count else { throw fail() }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "]") {
                        at += 1
                        return .array(items)
                    } else {
                        throw fail()
                    }
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try word("true", .bool(true))
            case UInt8(ascii: "f"): return try word("false", .bool(false))
            case UInt8(ascii: "n"): return try word("null", .null)
            default:
                return try number()
            }
        }

        mutating func word(_ text: String, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
            for byte in text.utf8 {
                guard at < bytes.count, bytes[at] == byte else { throw fail() }
                at += 1
            }
            return value
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = at
            func digits(_ parser: inout Parser) -> Int {
                let from = parser.at
                while parser.at < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.at]) { parser.at += 1 }
                return parser.at - from
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            let leading = at
            let whole = digits(&self)
            guard whole > 0 else { throw fail() }
            if whole > 1, bytes[leading] == UInt8(ascii: "0") {
                at = leading
                throw fail("number with leading zero")
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits(&self) > 0 else { throw fail() }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits(&self) > 0 else { throw fail() }
            }
            return .number(String(decoding: bytes[start..<at], as: UTF8.self))
        }

        /// A string from its opening quote; escapes decoded, invalid UTF-8 refused.
        mutating func string() throws(SyntaxError) -> String {
            let start = at
            at += 1
            var out: [UInt8] = []
            while true {
                guard at < bytes.count else { throw fail() }
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    at += 1
                    break
                }
                guard byte >= 0x20 else {
                    throw fail(
                        "control character in a string (write it as \\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16)))"
                    )
                }
                if byte != UInt8(ascii: "\\") {
                    out.append(byte)
                    at += 1
                    continue
                }
                at += 1
                guard at < bytes.count else { throw fail() }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { throw fail("invalid unicode escape") }
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid unicode escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid unicode escape") }
                    out += Array(String(Character(unicode)).utf8)
                default:
                    at -= 1
                    throw fail("invalid escape (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                }
            }
            guard let text = String(validating: out, as: UTF8.self) else {
                throw SyntaxError(what: "invalid UTF-8 in a string", offset: start)
            }
            return text
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard at < bytes.count, let digit = Int(String(UnicodeScalar(bytes[at])), radix: 16) else {
                    throw fail("invalid unicode escape")
                }
                value = value << 4 | UInt32(digit)
                at += 1
            }
            return value
        }
    }
}
