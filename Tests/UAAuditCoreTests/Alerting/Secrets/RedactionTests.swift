import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RedactionTests {
    /// (URL, what is shown before the hash).
    static let urls: [(String, String)] = [
        (
            "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa",
            "https://qyapi.weixin.qq.com/…"
        ),
        (
            "https://oapi.dingtalk.com/robot/send?access_token=abc123def456&timestamp=1&sign=xyz%2B",
            "https://oapi.dingtalk.com/…"
        ),
        ("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "https://hooks.slack.com/…"),
        ("https://example.com/webhook/abcdefghijklmnopqrstuvwx", "https://example.com/…"),
        ("http://user:pa55word@am.internal:9093/", "http://am.internal:9093/…"),
        ("http://127.0.0.1:9093", "http://127.0.0.1:9093/…"),
        ("HTTPS://[::1]:8443/x?k=v#frag", "https://[::1]:8443/…"),
        ("http://[fe80::1]/x", "http://[fe80::1]/…"),
        ("not a url at all", "***"),
        ("/relative/path?key=abc", "***"),
    ]

    @Test(arguments: urls)
    func urlsShowSchemeHostPortAndAHashOnly(url: String, shown: String) {
        let hash = String(SHA256.hex(SHA256.hash(Array(url.utf8))).prefix(6))
        #expect(Redaction.url(url) == shown + "#" + hash)
    }

    @Test func theHashTellsChannelsApart() {
        #expect(Redaction.url("https://h/a?key=1") != Redaction.url("https://h/a?key=2"))
        #expect(Redaction.url("https://h/a?key=1") == Redaction.url("https://h/a?key=1"))
    }

    @Test func secretsOfAURLAreEveryPathSegmentQueryValueUserPasswordAndFragment() {
        #expect(
            Redaction.secrets(in: "https://hooks.slack.com/services/T0/B0/XXXX?a=b%2Fc#f")
                == [
                    "/services/T0/B0/XXXX", "services", "a=b%2Fc", "a=b/c", "b%2Fc", "XXXX", "b/c", "B0", "T0", "a",
                    "f",
                ])
        #expect(Redaction.secrets(in: "http://u:p@h/") == ["p", "u"])
    }

    /// A query without `=` is a secret of its own (name and whole query), and the kind's
    /// documented query names are not.
    @Test func aQueryWithoutEqualsIsSecretAndDocumentedNamesAreNot() {
        #expect(
            Redaction.secrets(in: "http://h/p?QUERYNAMESECRET123")
                == ["QUERYNAMESECRET123", "/p", "p"])
        #expect(
            Redaction.scrub(
                "unknown hook QUERYNAMESECRET123 at /p", secrets: Redaction.secrets(in: "http://h/p?QUERYNAMESECRET123")
            )
                == "unknown hook *** at /p")
        #expect(
            Redaction.secrets(
                in: "https://oapi.dingtalk.com/robot/send?access_token=T0K&timestamp=17&sign=S1G",
                except: ChannelKind.dingtalk.publicURLParts)
                == ["access_token=T0K&timestamp=17&sign=S1G", "S1G", "T0K", "17"])
    }

    /// An answer that quotes a secret JSON-escaped or percent-encoded (either case) is scrubbed.
    @Test func escapedAndEncodedSpellingsAreScrubbed() {
        let secrets = Redaction.secrets(in: "https://h/hook/a%2Fb/SEGMENT-42?t=x y+z/w")
        let answer =
            #"{"path":"\/hook\/a%2Fb\/SEGMENT-42","seg":"a%2fb","t1":"x%20y%2Bz%2Fw","t2":"x+y%2bz%2fw","t3":"x y+z\/w","q":"t=x y+z\/w"}"#
        #expect(
            Redaction.scrub(answer, secrets: secrets)
                == #"{"path":"***","seg":"***","t1":"***","t2":"***","t3":"***","q":"***"}"#)
    }

    /// A second review: `key=PLUS+SEC8` came back form-decoded (`PLUS SEC8`), and
    /// `WECOM+KEY%2F44` as `WECOM KEY/44` and `WECOM+KEY%2f44`.
    @Test func formDecodedAndLowerHexSpellingsOfAQueryValueAreScrubbed() {
        let secrets = Redaction.secrets(in: "http://h/cgi-bin/webhook/send?key=PLUS+SEC8&k2=WECOM+KEY%2F44")
        let answer = #"dec=PLUS SEC8 uni="PLUS SEC8" a=WECOM KEY/44 b=WECOM+KEY%2f44 c=WECOM%20KEY%2F44"#
        #expect(Redaction.scrub(answer, secrets: secrets) == #"dec=*** uni="***" a=*** b=*** c=***"#)
    }

    @Test func scrubRemovesEverySecretOfThreeCharactersOrMore() {
        let text = "invalid key 693a91f6-7xxx, token abc, v 1; see https://x/?key=693a91f6-7xxx"
        #expect(
            Redaction.scrub(text, secrets: ["693a91f6-7xxx", "abc", "7xxx", "1"])
                == "invalid key ***, token ***, v 1; see https://x/?key=***")
    }
}
