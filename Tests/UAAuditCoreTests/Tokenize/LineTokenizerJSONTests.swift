import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Lines as nginx writes them with `log_format ua_log escape=json …`.
enum JSONLines {
    static let all: [LineCase] = [
        LineCase(
            name: "escaped quotes in the UA, unset values empty",
            line:
                #"127.0.0.1 -  [29/Nov/2026:17:18:40 +0800] "GET /api/v2/me HTTP/1.1" 200 2 "" "Mozilla/5.0 \"quoted\" x" rt=0.000 uct="" uht="" urt="""#,
            fields: [
                "127.0.0.1", "", "29/Nov/2026:17:18:40 +0800", "GET /api/v2/me HTTP/1.1", "200", "2", "",
                #"Mozilla/5.0 \"quoted\" x"#, "0.000", "", "", "",
            ],
            userAgent: #"Mozilla/5.0 "quoted" x"#,
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "UA ending in a backslash",
            line:
                #"10.0.0.2 -  [29/Nov/2026:17:18:41 +0800] "GET / HTTP/1.1" 200 2 "" "agent\\" rt=0.000 uct="" uht="" urt="""#,
            fields: [
                "10.0.0.2", "", "29/Nov/2026:17:18:41 +0800", "GET / HTTP/1.1", "200", "2", "", #"agent\\"#, "0.000",
                "", "", "",
            ],
            userAgent: #"agent\"#,
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "escaped quote followed by ' rt=' inside the UA",
            line:
                #"10.0.0.3 -  [29/Nov/2026:17:18:42 +0800] "GET / HTTP/1.1" 200 2 "" "a\\\" rt=b\\" rt=0.000 uct="" uht="" urt="""#,
            fields: [
                "10.0.0.3", "", "29/Nov/2026:17:18:42 +0800", "GET / HTTP/1.1", "200", "2", "", #"a\\\" rt=b\\"#,
                "0.000", "", "", "",
            ],
            userAgent: #"a\" rt=b\"#,
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "referer is one quote, UA one backslash",
            line:
                #"10.0.0.4 -  [29/Nov/2026:17:18:43 +0800] "GET / HTTP/1.1" 200 2 "\"" "\\" rt=0.000 uct="" uht="" urt="""#,
            fields: [
                "10.0.0.4", "", "29/Nov/2026:17:18:43 +0800", "GET / HTTP/1.1", "200", "2", #"\""#, #"\\"#, "0.000",
                "", "", "",
            ],
            userAgent: #"\"#,
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "control escapes, raw UTF-8 and raw DEL in the UA",
            line: "10.0.0.5 -  [29/Nov/2026:17:18:44 +0800] \"GET / HTTP/1.1\" 200 2 \"\" "
                + "\"a\\u0001b\\nc\\td\\u001f\\b\\f\\r é\u{7F}\" rt=0.000 uct=\"\" uht=\"\" urt=\"\"",
            fields: [
                "10.0.0.5", "", "29/Nov/2026:17:18:44 +0800", "GET / HTTP/1.1", "200", "2", "",
                "a\\u0001b\\nc\\td\\u001f\\b\\f\\r é\u{7F}", "0.000", "", "", "",
            ],
            userAgent: "a\u{1}b\nc\td\u{1F}\u{8}\u{C}\r é\u{7F}",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "remote_user with an escaped quote and ' ['",
            line:
                #"1.2.3.4 - a \"b [c [29/Nov/2026:17:18:45 +0800] "GET / HTTP/1.1" 200 2 "" "curl/8.5.0" rt=0.000 uct="" uht="" urt="""#,
            fields: [
                "1.2.3.4", #"a \"b [c"#, "29/Nov/2026:17:18:45 +0800", "GET / HTTP/1.1", "200", "2", "", "curl/8.5.0",
                "0.000", "", "", "",
            ],
            userAgent: "curl/8.5.0",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "escaped quote before a space in the request",
            line:
                #"1.2.3.5 -  [29/Nov/2026:17:18:46 +0800] "GET /a\" HTTP/1.1" 404 0 "" "curl/8.5.0" rt=0.000 uct="" uht="" urt="""#,
            fields: [
                "1.2.3.5", "", "29/Nov/2026:17:18:46 +0800", #"GET /a\" HTTP/1.1"#, "404", "0", "", "curl/8.5.0",
                "0.000", "", "", "",
            ],
            userAgent: "curl/8.5.0",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "upstream lists",
            line:
                #"1.2.3.6 -  [29/Nov/2026:17:18:47 +0800] "GET /x HTTP/1.1" 200 9 "" "curl/8.5.0" rt=0.057 uct="0.001, 0.002" uht="0.050, 0.055" urt="0.050 : 0.055""#,
            fields: [
                "1.2.3.6", "", "29/Nov/2026:17:18:47 +0800", "GET /x HTTP/1.1", "200", "9", "", "curl/8.5.0", "0.057",
                "0.001, 0.002", "0.050, 0.055", "0.050 : 0.055",
            ],
            userAgent: "curl/8.5.0",
            hour: hourKey(2026, 11, 29, 17, 480)),
    ]
}

@Suite struct LineTokenizerJSONTests {
    @Test(arguments: JSONLines.all)
    func splitsJSONLines(_ c: LineCase) throws {
        let t = try uaLogTokenizer(escape: .json)
        let tokens = try #require(t.tokens(c.line))
        #expect(tokens.strings == c.fields)
        #expect(tokens.hour == c.hour)
        let decoded = Unescape.decode(tokens.fields[t.userAgentField], mode: .json)
        #expect(decoded == Array(c.userAgent.utf8))
    }

    @Test func rawBytesThatAreNotUTF8() throws {
        // escape=json writes bytes of 0x80 and above as they are, valid UTF-8 or not.
        let t = try uaLogTokenizer(escape: .json)
        let ua: [UInt8] = [0x55, 0xFF, 0xC3, 0x22, 0x80, 0x5C]
        let logged: [UInt8] = [0x55, 0xFF, 0xC3, 0x5C, 0x22, 0x80, 0x5C, 0x5C]
        let line =
            Array(#"1.2.3.7 -  [29/Nov/2026:17:18:48 +0800] "GET / HTTP/1.1" 200 2 "" ""#.utf8) + logged
            + Array(#"" rt=0.000 uct="" uht="" urt="""#.utf8)
        let tokens = try #require(t.tokens(line))
        #expect(tokens.fields[7] == logged)
        #expect(Unescape.decode(tokens.fields[7], mode: .json) == ua)
        #expect(Escape.nginx(ua, mode: .json) == logged)
    }

    @Test func escapedQuoteCannotEndTheLastField() throws {
        let t = try uaLogTokenizer(escape: .json)
        let head = #"1.2.3.8 -  [29/Nov/2026:17:18:49 +0800] "GET / HTTP/1.1" 200 2 "" "curl" rt=0.000 uct="" uht="" "#
        #expect(t.tokens(head + #"urt="0.1\""#) == nil)
        #expect(t.tokens(head + #"urt="0.1\\\""#) == nil)
        #expect(try #require(t.tokens(head + #"urt="0.1\\""#)).strings[11] == #"0.1\\"#)
    }

    @Test func defaultModeLinesHaveNoJSONMeaning() throws {
        // With escape=default a backslash before a quote is just a byte: the quote ends the field.
        let t = try uaLogTokenizer()
        let line =
            #"1.2.3.9 - - [29/Nov/2026:17:18:50 +0800] "GET / HTTP/1.1" 200 2 "-" "agent\" rt=0.000 uct="-" uht="-" urt="-""#
        #expect(try #require(t.tokens(line)).strings[7] == #"agent\"#)
    }
}
