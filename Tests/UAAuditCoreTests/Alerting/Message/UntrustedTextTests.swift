import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct UntrustedTextTests {
    @Test func theIssuesMaliciousUAIsInert() {
        let shown = UntrustedText.neutralise(AlertFixtures.maliciousReported, limit: 200)
        #expect(
            shown
                == "∗∗bold∗∗ ‹＠all› ‹font color=\"warning\"›x‹/font› ［link］(http:∕∕evil) \\x1B［31m\\x07\\x00 com.apple.CFNetwork"
        )
        for forbidden in ["*", "<", ">", "@", "[", "]", "://", "\u{1B}", "\u{7}", "\u{0}"] {
            #expect(!shown.contains(forbidden), "\(forbidden)")
        }
    }

    static let cases: [(String, String)] = [
        ("plain MyApp/1.0 (iPhone; iOS 17_4)", "plain MyApp/1.0 (iPhone; iOS 17＿4)"),
        ("<!channel> <@U123|bob> &amp;", "‹!channel› ‹＠U123｜bob› ＆amp;"),
        ("`code` ~strike~ # head", "ˋcodeˋ ∼strike∼ ＃ head"),
        ("a\u{202E}b\u{200B}c\u{FEFF}", "a\\u{202E}b\\u{200B}c\\u{FEFF}"),
        ("tab\there\r\nnew\u{7F}\u{85}", "tab\\x09here\\x0D\\x0Anew\\x7F\\x85"),
        ("https://x.y/z and ftp://q", "https:∕∕x.y/z and ftp:∕∕q"),
        ("中文 UA 😀", "中文 UA 😀"),
    ]

    @Test(arguments: cases)
    func formattingCharactersBecomeLookAlikes(text: String, shown: String) {
        #expect(UntrustedText.neutralise(text, limit: 1000) == shown)
    }

    @Test func cutsAtTheLimitWithAnEllipsis() {
        #expect(UntrustedText.neutralise("abcdef", limit: 6) == "abcdef")
        #expect(UntrustedText.neutralise("abcdefg", limit: 6) == "abcde…")
        // An escape is never split.
        #expect(UntrustedText.neutralise("abc\u{1B}def", limit: 6) == "abc…")
        #expect(UntrustedText.neutralise(String(repeating: "x", count: 500), limit: 120).count == 120)
    }
}
