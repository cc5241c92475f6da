import Foundation

/// Turns Foundation's decoding errors into one line that says where the problem is.
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
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not JSON: \(underlying ?? context.debugDescription)"
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
        let message: String
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return nil
        } catch {
            message = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        }
        var what = message.hasSuffix(".") ? String(message.dropLast()) : message
        var offset: Int?
        if let range = what.range(of: " around character "), let n = Int(what[range.upperBound...]) {
            offset = n
            what = String(what[..<range.lowerBound])
        } else if what.lowercased().contains("end of file") {
            offset = bytes.count
            what = "unexpected end of file"
        }
        what = what.prefix(1).lowercased() + what.dropFirst()
        guard let offset, offset >= 0, offset <= bytes.count else { return what }
        let before = bytes[..<offset]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let hint = offset == bytes.count ? " (truncated?)" : ""
        return "\(what) at line \(line), column \(column)\(hint)"
    }
}
