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
