import Testing

@testable import UAAuditCLI

@Suite struct TerminalTextTests {
    static let cases: [(String, String)] = [
        ("plain MyApp/1.0", "plain MyApp/1.0"),
        ("\u{1B}[2Jclear", "\\x1B[2Jclear"),
        ("bell\u{7}", "bell\\x07"),
        ("del\u{7F}", "del\\x7F"),
        ("c1\u{9B}31m", "c1\\x9B31m"),
        ("rtl\u{202E}gnp.exe", "rtl\\u{202E}gnp.exe"),
        ("中文", "中文"),
        ("tab\there", "tab\\x09here"),
    ]

    @Test(arguments: cases)
    func controlCharactersAreShownEscaped(input: String, shown: String) {
        #expect(TerminalText.escape(input) == shown)
    }

    @Test func limitCountsTheEscapedText() {
        #expect(TerminalText.escape("abcdef", limit: 6) == "abcdef")
        #expect(TerminalText.escape("abcdefg", limit: 6) == "abcde…")
        #expect(TerminalText.escape("\u{1B}\u{1B}\u{1B}", limit: 9) == "\\x1B\\x1B…")
        #expect(TerminalText.escape("\u{1B}\u{1B}\u{1B}", limit: 9).count <= 9)
    }
}
