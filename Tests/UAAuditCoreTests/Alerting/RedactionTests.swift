import Testing

@testable import UAAuditCore

@Suite struct RedactionTests {
    static let urls: [(String, String)] = [
        (
            "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa",
            "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***"
        ),
        (
            "https://oapi.dingtalk.com/robot/send?access_token=abc123def456&timestamp=1&sign=xyz%2B",
            "https://oapi.dingtalk.com/robot/send?access_token=***&timestamp=***&sign=***"
        ),
        (
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "https://hooks.slack.com/services/***/***/***"
        ),
        (
            "https://open.feishu.cn/open-apis/bot/v2/hook/2e1b7c0a-1111-2222-3333-444455556666",
            "https://open.feishu.cn/open-apis/bot/v2/hook/***"
        ),
        ("http://user:pa55word@am.internal:9093/", "http://***@am.internal:9093/"),
        ("http://127.0.0.1:9093", "http://127.0.0.1:9093"),
        ("https://example.com/alerts/3f2a9b0c1d2e3f4a5b6c/notify", "https://example.com/alerts/***/notify"),
        ("https://example.com/api/v2/alerts#frag", "https://example.com/api/v2/alerts#***"),
        ("https://example.com/x?flag", "https://example.com/x?flag"),
        ("not a url at all", "***"),
        ("/relative/path?key=abc", "***"),
    ]

    @Test(arguments: urls)
    func urlsShowNoSecret(url: String, shown: String) {
        #expect(Redaction.url(url) == shown)
    }

    @Test func secretsOfAURLAreItsQueryValuesHookPathUserAndFragment() {
        #expect(
            Redaction.secrets(in: "https://hooks.slack.com/services/T0/B0/XXXX?a=b%2Fc#f")
                == ["b%2Fc", "XXXX", "b/c", "B0", "T0", "f"])
        #expect(Redaction.secrets(in: "http://u:p@h/") == ["p", "u"])
    }

    @Test func scrubRemovesEverySecretOfFourCharactersOrMore() {
        let text = "invalid key 693a91f6-7xxx, token abc; see https://x/?key=693a91f6-7xxx"
        #expect(
            Redaction.scrub(text, secrets: ["693a91f6-7xxx", "abc", "7xxx"])
                == "invalid key ***, token abc; see https://x/?key=***")
    }

    @Test(arguments: [
        ("3f2a9b0c1d2e3f4a5b6c", true), ("abcdefghijklmnopqrst", false), ("v2", false), ("2e1b7c0a-1111", false),
        ("2e1b7c0a-1111-2222-3333", true), ("a.b/c1234567890123", false),
    ])
    func tokenLikeSegments(segment: String, token: Bool) {
        #expect(Redaction.looksLikeToken(segment) == token)
    }
}
