/// A compiled nginx `log_format`: the segments a line is made of, and how values were escaped.
///
/// Compile once with ``init(_:escape:name:)``; ``LineTokenizer`` then splits lines against it.
package struct LogFormat: Sendable, Equatable {
    /// The name given to the format (`ua_log`, `combined`, a name from nginx.conf), if any.
    package let name: String?
    /// The format string as nginx reads it (config-file escapes already applied).
    package let string: String
    package let escape: EscapeMode
    package let segments: [Segment]

    /// Compiles an nginx format string.
    ///
    /// Variables are `$name` or `${name}` with name characters `[A-Za-z0-9_]`, as nginx reads them.
    /// - Throws: ``FormatError`` when a variable is malformed, two variables touch, or the format
    ///   lacks the user agent or a time variable.
    package init(_ string: String, escape: EscapeMode = .default, name: String? = nil) throws {
        self.name = name
        self.string = string
        self.escape = escape
        self.segments = try LogFormat.compile(string)
        try validate()
    }

    /// The variable names in order, without `$`.
    package var variableNames: [String] {
        segments.compactMap { if case .variable(let name, _) = $0 { return name } else { return nil } }
    }

    private func validate() throws {
        var previous: String?
        for segment in segments {
            switch segment {
            case .variable(let name, _):
                if let previous { throw FormatError.adjacentVariables(first: previous, second: name) }
                previous = name
            case .literal:
                previous = nil
            }
        }
        let roles = segments.compactMap { if case .variable(_, let role) = $0 { return role } else { return nil } }
        if !roles.contains(where: \.isTime) { throw FormatError.noTimeVariable(format: string) }
        if !roles.contains(.userAgent) { throw FormatError.noUserAgentVariable(format: string) }
    }

    private static func compile(_ string: String) throws -> [Segment] {
        let bytes = Array(string.utf8)
        var segments: [Segment] = []
        var literal: [UInt8] = []
        var i = 0
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "$") else {
                literal.append(bytes[i])
                i += 1
                continue
            }
            let column = i + 1
            var j = i + 1
            let name: [UInt8]
            if j < bytes.count, bytes[j] == UInt8(ascii: "{") {
                j += 1
                let start = j
                while j < bytes.count, bytes[j] != UInt8(ascii: "}") { j += 1 }
                guard j < bytes.count else { throw FormatError.unterminatedBrace(format: string, column: column) }
                name = Array(bytes[start..<j])
                j += 1
                guard !name.isEmpty, name.allSatisfy(isNameByte) else {
                    throw FormatError.invalidVariable(format: string, column: column)
                }
            } else {
                let start = j
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                name = Array(bytes[start..<j])
                guard !name.isEmpty else { throw FormatError.invalidVariable(format: string, column: column) }
            }
            if !literal.isEmpty {
                segments.append(.literal(literal))
                literal = []
            }
            let nameString = String(decoding: name, as: UTF8.self)
            segments.append(.variable(name: nameString, role: FieldRole(variableName: nameString)))
            i = j
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }
}
