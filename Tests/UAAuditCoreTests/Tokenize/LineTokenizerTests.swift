import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The fields and hour a tokenizer made of one line.
struct Tokens {
    var fields: [[UInt8]]
    var hour: HourKey

    var strings: [String] { fields.map { String(decoding: $0, as: UTF8.self) } }
}

extension Tokens: CustomStringConvertible {
    var description: String { "\(strings) in \(hour.iso8601)" }
}

extension LineTokenizer {
    /// Matches `line` and copies its fields out; nil when the line is malformed.
    func tokens(_ line: [UInt8]) -> Tokens? {
        line.withUnsafeBytes { raw in
            guard match(raw) else { return nil }
            return Tokens(fields: (0..<fieldCount).map { Array(field($0)) }, hour: hour)
        }
    }

    func tokens(_ line: String) -> Tokens? { tokens(Array(line.utf8)) }
}

/// A log line, the fields it splits into, the decoded user agent and the hour it counts in.
struct LineCase: Sendable, CustomTestStringConvertible {
    let name: String
    let line: String
    let fields: [String]
    let userAgent: String
    let hour: HourKey
    var testDescription: String { name }
}

func hourKey(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ offset: Int32) -> HourKey {
    HourKey(year: year, month: month, day: day, hour: hour, offsetMinutes: offset)
}

/// Lines as nginx writes them with `ua_log` and `escape=default`.
enum DefaultLines {
    static let all: [LineCase] = [
        LineCase(
            name: "an app request",
            line:
                #"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET /api/v2/me HTTP/1.1" 200 2 "-" "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "127.0.0.1", "-", "29/Nov/2026:17:18:40 +0800", "GET /api/v2/me HTTP/1.1", "200", "2", "-",
                "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)", "0.000", "-", "-", "-",
            ],
            userAgent: "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "quote and backslash in the UA",
            line:
                #"10.0.0.7 - - [29/Nov/2026:17:59:59 +0800] "GET /api/v2/feed?page=2 HTTP/2.0" 200 5120 "https://example.com/a?b=c" "Mozilla/5.0 \x22quoted\x22 back\x5Cslash" rt=0.031 uct="0.001" uht="0.030" urt="0.030""#,
            fields: [
                "10.0.0.7", "-", "29/Nov/2026:17:59:59 +0800", "GET /api/v2/feed?page=2 HTTP/2.0", "200", "5120",
                "https://example.com/a?b=c", #"Mozilla/5.0 \x22quoted\x22 back\x5Cslash"#, "0.031", "0.001", "0.030",
                "0.030",
            ],
            userAgent: #"Mozilla/5.0 "quoted" back\slash"#,
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "control bytes, DEL and UTF-8 in the UA",
            line:
                #"10.0.0.8 - - [01/Dec/2026:00:00:00 +0000] "POST /api/v2/login HTTP/1.1" 401 17 "-" "okhttp/4.12.0\x09tab\x0Anl\x7Fdel \xE4\xB8\xAD\xE6\x96\x87\x00" rt=0.004 uct="0.000" uht="0.004" urt="0.004""#,
            fields: [
                "10.0.0.8", "-", "01/Dec/2026:00:00:00 +0000", "POST /api/v2/login HTTP/1.1", "401", "17", "-",
                #"okhttp/4.12.0\x09tab\x0Anl\x7Fdel \xE4\xB8\xAD\xE6\x96\x87\x00"#, "0.004", "0.000", "0.004", "0.004",
            ],
            userAgent: "okhttp/4.12.0\ttab\nnl\u{7F}del 中文\u{0}",
            hour: hourKey(2026, 12, 1, 0, 0)),
        LineCase(
            name: "unset UA and referer are -",
            line:
                #"203.0.113.9 - - [29/Nov/2026:17:18:41 +0800] "GET /health HTTP/1.0" 204 0 "-" "-" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "203.0.113.9", "-", "29/Nov/2026:17:18:41 +0800", "GET /health HTTP/1.0", "204", "0", "-", "-",
                "0.000", "-", "-", "-",
            ],
            userAgent: "-",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "empty UA and referer",
            line:
                #"203.0.113.9 - - [29/Nov/2026:17:18:42 +0800] "GET /health HTTP/1.1" 204 0 "" "" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "203.0.113.9", "-", "29/Nov/2026:17:18:42 +0800", "GET /health HTTP/1.1", "204", "0", "", "", "0.000",
                "-", "-", "-",
            ],
            userAgent: "",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "remote_user with a space and an escaped quote",
            line:
                #"192.0.2.1 - a b\x22c [29/Nov/2026:17:18:43 +0800] "GET /private HTTP/1.1" 401 172 "-" "curl/8.5.0" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "192.0.2.1", #"a b\x22c"#, "29/Nov/2026:17:18:43 +0800", "GET /private HTTP/1.1", "401", "172", "-",
                "curl/8.5.0", "0.000", "-", "-", "-",
            ],
            userAgent: "curl/8.5.0",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "remote_user with ' ['",
            line:
                #"192.0.2.2 - x [y [29/Nov/2026:17:18:44 +0800] "GET /private HTTP/1.1" 401 172 "-" "curl/8.5.0" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "192.0.2.2", "x [y", "29/Nov/2026:17:18:44 +0800", "GET /private HTTP/1.1", "401", "172", "-",
                "curl/8.5.0", "0.000", "-", "-", "-",
            ],
            userAgent: "curl/8.5.0",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "remote_user holding a bracketed time",
            line:
                #"192.0.2.3 - u [29/Nov/2026:17:18:45 +0800] z [29/Nov/2026:18:00:00 +0800] "GET /private HTTP/1.1" 401 172 "-" "curl/8.5.0" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "192.0.2.3", "u [29/Nov/2026:17:18:45 +0800] z", "29/Nov/2026:18:00:00 +0800", "GET /private HTTP/1.1",
                "401", "172", "-", "curl/8.5.0", "0.000", "-", "-", "-",
            ],
            userAgent: "curl/8.5.0",
            hour: hourKey(2026, 11, 29, 18, 480)),
        LineCase(
            name: "TLS handshake as the request",
            line:
                #"198.51.100.4 - - [29/Nov/2026:17:18:46 +0800] "\x16\x03\x01\x02\x00\x01\x00\x01\xFC\x03\x03\xA4" 400 157 "-" "-" rt=0.112 uct="-" uht="-" urt="-""#,
            fields: [
                "198.51.100.4", "-", "29/Nov/2026:17:18:46 +0800", #"\x16\x03\x01\x02\x00\x01\x00\x01\xFC\x03\x03\xA4"#,
                "400", "157", "-", "-", "0.112", "-", "-", "-",
            ],
            userAgent: "-",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "empty request",
            line: #"198.51.100.5 - - [29/Nov/2026:17:18:47 +0800] "" 400 0 "-" "-" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "198.51.100.5", "-", "29/Nov/2026:17:18:47 +0800", "", "400", "0", "-", "-", "0.000", "-", "-", "-",
            ],
            userAgent: "-",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "HTTP/0.9 request",
            line:
                #"198.51.100.6 - - [29/Nov/2026:17:18:48 +0800] "GET /" 200 612 "-" "-" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "198.51.100.6", "-", "29/Nov/2026:17:18:48 +0800", "GET /", "200", "612", "-", "-", "0.000", "-", "-",
                "-",
            ],
            userAgent: "-",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "upstream lists",
            line:
                #"10.0.0.9 - - [29/Nov/2026:17:18:49 +0800] "GET /api/v2/orders HTTP/1.1" 502 150 "-" "MyApp/5.12.1 (Android 14; Pixel 8)" rt=0.057 uct="-, 0.002" uht="-, 0.055" urt="0.000 : 0.055""#,
            fields: [
                "10.0.0.9", "-", "29/Nov/2026:17:18:49 +0800", "GET /api/v2/orders HTTP/1.1", "502", "150", "-",
                "MyApp/5.12.1 (Android 14; Pixel 8)", "0.057", "-, 0.002", "-, 0.055", "0.000 : 0.055",
            ],
            userAgent: "MyApp/5.12.1 (Android 14; Pixel 8)",
            hour: hourKey(2026, 11, 29, 17, 480)),
        LineCase(
            name: "IPv6 client, offset +0530",
            line:
                #"2001:db8::1 - - [15/Mar/2026:08:59:59 +0530] "HEAD / HTTP/1.1" 200 0 "-" "Pingdom.com_bot_version_1.4" rt=0.001 uct="0.000" uht="0.001" urt="0.001""#,
            fields: [
                "2001:db8::1", "-", "15/Mar/2026:08:59:59 +0530", "HEAD / HTTP/1.1", "200", "0", "-",
                "Pingdom.com_bot_version_1.4", "0.001", "0.000", "0.001", "0.001",
            ],
            userAgent: "Pingdom.com_bot_version_1.4",
            hour: hourKey(2026, 3, 15, 8, 330)),
        LineCase(
            name: "offset -0930, before 1970",
            line:
                #"10.1.1.1 - - [31/Dec/1969:23:30:00 -0930] "GET /old HTTP/1.1" 301 169 "-" "Wget/1.21" rt=0.000 uct="-" uht="-" urt="-""#,
            fields: [
                "10.1.1.1", "-", "31/Dec/1969:23:30:00 -0930", "GET /old HTTP/1.1", "301", "169", "-", "Wget/1.21",
                "0.000", "-", "-", "-",
            ],
            userAgent: "Wget/1.21",
            hour: hourKey(1969, 12, 31, 23, -570)),
        LineCase(
            name: "quotes in the request, rt= in the UA, leap day",
            line:
                #"10.0.0.10 - - [29/Feb/2028:12:00:00 +0000] "GET /search?q=\x22a b\x22 HTTP/1.1" 200 10 "https://example.com/ x" "Mozilla/5.0 (X11; Linux x86_64) rt=1" rt=12.345 uct="0.000" uht="12.300" urt="12.345""#,
            fields: [
                "10.0.0.10", "-", "29/Feb/2028:12:00:00 +0000", #"GET /search?q=\x22a b\x22 HTTP/1.1"#, "200", "10",
                "https://example.com/ x", "Mozilla/5.0 (X11; Linux x86_64) rt=1", "12.345", "0.000", "12.300",
                "12.345",
            ],
            userAgent: "Mozilla/5.0 (X11; Linux x86_64) rt=1",
            hour: hourKey(2028, 2, 29, 12, 0)),
    ]
}

/// A tokenizer for the built-in `ua_log` format, escaped with `escape`.
func uaLogTokenizer(escape: EscapeMode = .default) throws -> LineTokenizer {
    LineTokenizer(format: try LogFormat(BuiltinFormats.uaLog, escape: escape, name: "ua_log"))
}

@Suite struct LineTokenizerTests {
    @Test func fieldIndexesOfUALog() throws {
        let t = try uaLogTokenizer()
        #expect(t.fieldCount == 12)
        #expect(t.userAgentField == 7)
        #expect(t.timeField == 2)
        #expect(t.requestField == 3)
        #expect(t.statusField == 4)
        #expect(t.uriField == nil)
    }

    @Test(arguments: DefaultLines.all)
    func splitsDefaultLines(_ c: LineCase) throws {
        let t = try uaLogTokenizer()
        let tokens = try #require(t.tokens(c.line))
        #expect(tokens.strings == c.fields)
        #expect(tokens.hour == c.hour)
        #expect(tokens.strings[t.userAgentField] == c.fields[7])
        #expect(tokens.strings[t.timeField] == c.fields[2])
        #expect(tokens.strings[t.requestField!] == c.fields[3])
        #expect(tokens.strings[t.statusField!] == c.fields[4])
        let decoded = Unescape.decode(tokens.fields[t.userAgentField], mode: .default)
        #expect(decoded == Array(c.userAgent.utf8))
    }

    @Test func oneTokenizerOverManyLines() throws {
        // Spans and hour always describe the last line that matched, whatever failed in between
        // (this line gets as far as its time, 23:00, before its status fails).
        let brokenStatus =
            #"1.1.1.1 - - [29/Nov/2026:23:00:00 +0800] "GET / HTTP/1.1" 2x0 0 "-" "-" rt=0.000 uct="-" uht="-" urt="-""#
        let t = try uaLogTokenizer()
        for c in DefaultLines.all {
            #expect(t.tokens(brokenStatus) == nil)
            let tokens = try #require(t.tokens(c.line), "\(c.name)")
            #expect(tokens.strings == c.fields, "\(c.name)")
            #expect(tokens.hour == c.hour, "\(c.name)")
            #expect(t.tokens(String(c.line.dropLast())) == nil)
        }
    }

    @Test func combinedFormatLine() throws {
        let t = LineTokenizer(format: try BuiltinFormats.named("combined"))
        let line =
            #"66.249.66.1 - - [29/Nov/2026:17:18:40 +0800] "GET /robots.txt HTTP/1.1" 200 67 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)""#
        let tokens = try #require(t.tokens(line))
        #expect(
            tokens.strings == [
                "66.249.66.1", "-", "29/Nov/2026:17:18:40 +0800", "GET /robots.txt HTTP/1.1", "200", "67", "-",
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            ])
        #expect(tokens.hour == hourKey(2026, 11, 29, 17, 480))
    }

    @Test func headLiteralURIAndStatusLast() throws {
        let format = try LogFormat(#"[$time_iso8601] $request_uri "$http_user_agent" $status"#)
        let t = LineTokenizer(format: format)
        #expect(t.uriField == 1)
        #expect(t.requestField == nil)
        #expect(t.statusField == 3)
        #expect(t.timeField == 0)
        #expect(t.userAgentField == 2)
        let tokens = try #require(t.tokens(#"[2026-11-29T17:18:40-09:30] /api/v2/me?x=1 "curl/8.5.0" 200"#))
        #expect(tokens.strings == ["2026-11-29T17:18:40-09:30", "/api/v2/me?x=1", "curl/8.5.0", "200"])
        #expect(tokens.hour == hourKey(2026, 11, 29, 17, -570))
        // The head literal must match, and the status that ends the line must be three digits.
        #expect(t.tokens(#"(2026-11-29T17:18:40-09:30] /a "curl" 200"#) == nil)
        #expect(t.tokens(#"[2026-11-29T17:18:40-09:30] /a "curl" 20"#) == nil)
        #expect(t.tokens(#"[2026-11-29T17:18:40-09:30] /a "curl" 2000"#) == nil)
        #expect(t.tokens(#"[2026-11-29T17:18:40-09:30] /a "curl" "#) == nil)
    }

    @Test func msecIsCountedInUTC() throws {
        let t = LineTokenizer(format: try LogFormat(#"$msec "$http_user_agent""#))
        let tokens = try #require(t.tokens(#"1795943920.123 "curl/8.5.0""#))
        #expect(tokens.strings == ["1795943920.123", "curl/8.5.0"])
        #expect(tokens.hour == hourKey(2026, 11, 29, 9, 0))
        #expect(t.tokens(#"1795943920.12x "curl/8.5.0""#) == nil)
    }

    @Test func unquotedUserAgentRunsToTheEnd() throws {
        let t = LineTokenizer(format: try LogFormat("$time_local|$http_user_agent"))
        let tokens = try #require(t.tokens("29/Nov/2026:17:18:40 +0800|a|b c"))
        #expect(tokens.strings == ["29/Nov/2026:17:18:40 +0800", "a|b c"])
        let empty = try #require(t.tokens("29/Nov/2026:17:18:40 +0800|"))
        #expect(empty.strings == ["29/Nov/2026:17:18:40 +0800", ""])
    }

    @Test func digitsFieldsMustBeDigits() throws {
        let t = LineTokenizer(format: try LogFormat("$time_local $request_length $connection $http_user_agent"))
        let tokens = try #require(t.tokens("29/Nov/2026:17:18:40 +0800 512 77 UA x"))
        #expect(tokens.strings == ["29/Nov/2026:17:18:40 +0800", "512", "77", "UA x"])
        #expect(t.tokens("29/Nov/2026:17:18:40 +0800 - 77 UA") == nil)
        #expect(t.tokens("29/Nov/2026:17:18:40 +0800 512  UA") == nil)
        #expect(t.tokens("29/Nov/2026:17:18:40 +0800 5.1 77 UA") == nil)
    }
}
