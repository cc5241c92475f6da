extension StringProtocol {
    /// Without white space (spaces, tabs and the other Unicode spaces) at either end; line
    /// breaks too when `newlines` (Foundation's `.whitespaces` and `.whitespacesAndNewlines`,
    /// which FoundationEssentials lacks).
    package func trimmed(newlines: Bool = false) -> String {
        func isSpace(_ c: Character) -> Bool { c.isWhitespace && (newlines || !c.isNewline) }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension String {
    /// With control characters written as `\n`, `\t` or `\u{1B}`: a key read from a file, put
    /// in a message, can then not forge a line of it.
    var escapingControls: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
