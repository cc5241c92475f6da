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
        case .dataCorrupted(let context):
            if let bytes, let syntax = syntaxError(in: bytes) { return "not JSON: \(syntax)" }
            return "not JSON: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// What is wrong with `bytes` as JSON and where, such as "unexpected end of file at line 1,
    /// column 25 (truncated?)"; nil when they are valid JSON.
    package static func syntaxError(in bytes: [UInt8]) -> String? {
        let what: String
        let offset: Int
        do throws(JSONValue.SyntaxError) {
            _ = try JSONValue.parse(bytes)
            return nil
        } catch {
            (what, offset) = (error.what, min(max(error.offset, 0), bytes.count))
        }
        let before = bytes[..<offset]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let hint = offset == bytes.count ? " (truncated?)" : ""
        return "\(what) at line \(line), column \(column)\(hint)"
    }
}
