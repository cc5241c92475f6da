import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Lines that must not match: a line either matches the whole format or is malformed.
@Suite struct LineTokenizerMalformedTests {
    @Test(arguments: DefaultLines.all)
    func noProperPrefixOfADefaultLineMatches(_ c: LineCase) throws {
        let t = try uaLogTokenizer()
        let bytes = Array(c.line.utf8)
        for n in 0..<bytes.count {
            #expect(
                t.tokens(Array(bytes[0..<n])) == nil,
                "prefix of \(n) bytes: \(String(decoding: bytes[0..<n], as: UTF8.self))")
        }
        #expect(t.tokens(bytes) != nil)
    }

    @Test(arguments: JSONLines.all)
    func noProperPrefixOfAJSONLineMatches(_ c: LineCase) throws {
        let t = try uaLogTokenizer(escape: .json)
        let bytes = Array(c.line.utf8)
        for n in 0..<bytes.count {
            #expect(
                t.tokens(Array(bytes[0..<n])) == nil,
                "prefix of \(n) bytes: \(String(decoding: bytes[0..<n], as: UTF8.self))")
        }
        #expect(t.tokens(bytes) != nil)
    }

    @Test(arguments: [" ", "x", "\n", "\r", "\\", "\t", "-"])
    func extraTrailingByte(_ extra: String) throws {
        let t = try uaLogTokenizer()
        for c in DefaultLines.all {
            #expect(t.tokens(c.line + extra) == nil, "\(c.name)")
        }
        let j = try uaLogTokenizer(escape: .json)
        for c in JSONLines.all {
            #expect(j.tokens(c.line + extra) == nil, "\(c.name)")
        }
    }

    @Test func extraTrailingQuote() throws {
        // nginx never writes a bare `"` inside a value (escape=default writes \x22, json \"), so a line
        // with one more quote at the end is not a line of the format.
        let t = try uaLogTokenizer()
        let j = try uaLogTokenizer(escape: .json)
        #expect(t.tokens(DefaultLines.all[0].line + "\"") == nil)
        #expect(j.tokens(JSONLines.all[0].line + "\"") == nil)
    }

    @Test func tornLineDoesNotMatch() throws {
        // A line cut short (a crash, a full disk) followed by the next whole line.
        let t = try uaLogTokenizer()
        let first = DefaultLines.all[0].line
        let second = DefaultLines.all[1].line
        let cut = try #require(first.firstRange(of: "Scale/")).lowerBound
        // Cut inside the last field: urt takes the whole second line.
        #expect(t.tokens(String(first.dropLast()) + second) == nil)
        // Cut inside the UA: the UA takes the start of the second line.
        #expect(t.tokens(String(first[..<cut]) + second) == nil)
    }

    static let combinedLines = [
        #"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET /api/v2/me HTTP/1.1" 200 2 "-" "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)""#,
        #"66.249.66.1 - - [29/Nov/2026:17:18:40 +0800] "GET /robots.txt HTTP/1.1" 200 67 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)""#,
        #"198.51.100.5 - - [29/Nov/2026:17:18:47 +0800] "" 400 0 "-" "-""#,
        #"10.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" "a rt=0.000 uct=-""#,
    ]

    @Test(arguments: combinedLines)
    func combinedLinesAgainstUALog(_ line: String) throws {
        #expect(try uaLogTokenizer().tokens(line) == nil)
        #expect(LineTokenizer(format: try BuiltinFormats.named("combined")).tokens(line) != nil)
    }

    @Test func uaLogLinesAgainstCombined() throws {
        let t = LineTokenizer(format: try BuiltinFormats.named("combined"))
        #expect(t.tokens(DefaultLines.all[0].line) == nil)
    }

    static let head = #"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" "#

    @Test(arguments: [
        // status
        head + #"20 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        head + #"2000 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        head + #"2x0 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        head + #" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        // body_bytes_sent
        head + #"200 - "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        head + #"200  "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        head + #"200 -2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        // request_time
        head + #"200 2 "-" "UA" rt=- uct="-" uht="-" urt="-""#,
        head + #"200 2 "-" "UA" rt= uct="-" uht="-" urt="-""#,
        head + #"200 2 "-" "UA" rt=0.0.0 uct="-" uht="-" urt="-""#,
        head + #"200 2 "-" "UA" rt=1e3 uct="-" uht="-" urt="-""#,
        // literals
        head + #"200 2 "-" "UA" rt=0.000 uct="-" uht="-""#,
        head + #"200 2 "-" "UA" rt=0.000 uct="-" urt="-" uht="-""#,
        head + #"200 2 "-" "UA" uct="-" uht="-" urt="-""#,
        head + #"200 2 "-" UA rt=0.000 uct="-" uht="-" urt="-""#,
        #"127.0.0.1 - [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        #"127.0.0.1 - - 29/Nov/2026:17:18:40 +0800 "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        // time
        #"127.0.0.1 - - [31/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        #"127.0.0.1 - - [29/Nov/2026:24:00:00 +0800] "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        #"127.0.0.1 - - [29/Nov/2026:17:18:40] "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        #"127.0.0.1 - - [2026-11-29T17:18:40+08:00] "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#,
        // not log lines
        "",
        " ",
        "-",
        #"{"time":"2026-11-29T17:18:40+08:00","ua":"curl/8.5.0"}"#,
        "127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] \"GET / HTTP/1.1\" 200 2 \"-\" \"UA\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\"\n",
    ])
    func malformedLine(_ line: String) throws {
        #expect(try uaLogTokenizer().tokens(line) == nil)
    }

    static func userWithBrackets(_ count: Int) -> String {
        let user = Array(repeating: "u [", count: count).joined()
        return "1.2.3.4 - " + user
            + #"x [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" "UA" rt=0.000 uct="-" uht="-" urt="-""#
    }

    @Test func backtracksThroughManyBrackets() throws {
        let tokens = try #require(try uaLogTokenizer().tokens(Self.userWithBrackets(20)))
        #expect(tokens.strings[1] == Array(repeating: "u [", count: 20).joined() + "x")
        #expect(tokens.strings[2] == "29/Nov/2026:17:18:40 +0800")
    }

    @Test func backtrackingHasABudget() throws {
        #expect(LineTokenizer.backtrackBudget == 256)
        #expect(try uaLogTokenizer().tokens(Self.userWithBrackets(1000)) == nil)
    }
}
