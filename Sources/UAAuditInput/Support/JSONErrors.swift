import FoundationEssentials

/// Turns the JSON decoder's errors into one line that says where the problem is.
package enum JSONErrors {
    /// `bytes`, when given, are the JSON that failed: a syntax error then says the line and
    /// column (JSONDecoder itself only says "not valid JSON").
    package static func describe(_ error: any Error, in bytes: [UInt8]? = nil) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ keys: [any CodingKey]) -> String {
            let p = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "the top level" : p
        }
        switch error {
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            // A value that a type refused (a threshold of too many digits): valid JSON.
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            if let bytes, let syntax = syntaxError(in: bytes) { return "not JSON: \(syntax)" }
            return "not JSON: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            // In the file's words: "format must be an object (not a string)", never Swift's
            // "Expected to decode Dictionary<String, Any> but found a string instead".
            var text =
                "wrong type at \(path(context.codingPath)): \(name(context.codingPath)) must be \(expected(type))"
            if let found = found(in: context.debugDescription) { text += " (not \(found))" }
            return text
        @unknown default:
            return String(describing: error)
        }
    }

    /// A value's place as the file spells it: `format`, `alerts[0].url`, or `the top level`.
    static func name(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "the top level" : text
    }

    /// The JSON kind of value a Swift type is decoded from.
    static func expected(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "a list" }
        if name.hasPrefix("String") { return "a string" }
        if name.hasPrefix("Bool") { return "true or false" }
        if name.hasPrefix("Int") || name.hasPrefix("UInt") { return "a whole number" }
        if name.hasPrefix("Double") || name.hasPrefix("Float") || name.hasPrefix("Decimal") { return "a number" }
        return "a value of another type"
    }

    /// "a string" from the decoder's "… but found a string instead"; "null" for a missing value.
    static func found(in description: String) -> String? {
        if description.contains("null value") || description.contains("found null") { return "null" }
        guard let start = description.firstRange(of: "found ") else { return nil }
        var rest = description[start.upperBound...]
        if let end = rest.firstRange(of: " instead") { rest = rest[..<end.lowerBound] }
        guard !rest.isEmpty else { return nil }
        if rest.hasPrefix("a ") || rest.hasPrefix("an ") || rest == "null" { return String(rest) }
        return (rest.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + rest
    }

    /// What is wrong with `bytes` as JSON and where, such as "unexpected end of file at line 1,
    /// column 25 (truncated?)"; nil when they are valid JSON.
    static func syntaxError(in bytes: [UInt8]) -> String? {
        do throws(JSONValue.SyntaxError) {
            _ = try JSONValue.parse(bytes)
            return nil
        } catch {
            return describe(error, in: bytes)
        }
    }

    /// `error`, found parsing `bytes`, as ``syntaxError(in:)`` words it.
    package static func describe(_ error: JSONValue.SyntaxError, in bytes: [UInt8]) -> String {
        let (what, offset) = (error.what, min(max(error.offset, 0), bytes.count))
        let before = bytes[..<offset]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let hint = offset == bytes.count ? " (truncated?)" : ""
        return "\(what) at line \(line), column \(column)\(hint)"
    }
}
