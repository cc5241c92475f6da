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
        ("alm\u{61C}x", "alm\\u{61C}x"),
        ("line\u{2028}para\u{2029}end", "line\\u{2028}para\\u{2029}end"),
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

    /// Limits count terminal columns: a CJK character or an emoji takes two, a combining mark
    /// none, so a Chinese UA is cut to the width it shows at, not to twice it.
    @Test func limitsCountColumnsNotCharacters() {
        #expect(TerminalText.columns("中文UA") == 6)
        #expect(TerminalText.columns("e\u{301}") == 1)
        #expect(TerminalText.columns("😀a") == 3)
        #expect(TerminalText.escape("中文", limit: 4) == "中文")
        #expect(TerminalText.escape("中文中文中文", limit: 7) == "中文中…")
        #expect(TerminalText.escape("中文中文中文", limit: 8) == "中文中…")
        #expect(TerminalText.escape("ab中文", limit: 5) == "ab中…")
        let ua = "Mozilla/5.0 (Linux; Android 14; 华为 Mate 60 Pro 手机) " + String(repeating: "浏览器", count: 20)
        let shown = TerminalText.escape(ua, limit: 68)
        #expect(TerminalText.columns(shown) <= 68)
        #expect(TerminalText.columns(shown) >= 67)  // a wide character does not fit in the last column
        #expect(shown.hasSuffix("…"))
        let lines = TerminalText.wrapped("coverage: " + ua, indent: "  ", width: 40)
        #expect(lines.allSatisfy { TerminalText.columns($0) <= 40 }, "\(lines)")
        #expect(lines[0] == "  coverage: Mozilla/5.0 (Linux; Android")
        // Columns of a table line up under a class name of wide characters.
        #expect("内部".padded(6) + "|" == "内部  |")
        #expect("内部".rightAligned(6) == "  内部")
        #expect("1234".rightAligned(6) == "  1234")
    }
}
