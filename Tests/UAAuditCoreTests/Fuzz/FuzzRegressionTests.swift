import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Inputs the fuzzers (Fuzz/run.sh) found, kept so the bugs stay fixed.
@Suite struct FuzzRegressionTests {
    /// A 20-digit `$msec` overflowed Int64 while being parsed: a trap in checked builds.
    @Test func aHugeMsecIsMalformedNotACrash() throws {
        let tokenizer = LineTokenizer(format: try LogFormat("$msec|$status|$http_user_agent"))
        let line = Array("22323321166321166111|+23|3233".utf8)
        #expect(!line.withUnsafeBytes { tokenizer.match($0) })
        let digits20 = Array("99999999999999999999.123".utf8)
        #expect(digits20.withUnsafeBytes { TimeParser.parseMsec($0.baseAddress!, count: $0.count) } == nil)
    }

    /// An 11- or 12-digit `$msec` gave a 5-digit year, whose hour text did not parse back.
    @Test func msecBeyondTenDigitsIsRejectedSoHoursAlwaysRoundTrip() {
        for text in ["17830000000.000", "99999999999.5"] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { TimeParser.parseMsec($0.baseAddress!, count: $0.count) } == nil)
        }
        let max = Array("9999999999.999".utf8)
        let key = max.withUnsafeBytes { TimeParser.parseMsec($0.baseAddress!, count: $0.count) }
        #expect(key?.iso8601 == "2286-11-20T17:00:00+00:00")
        #expect(key.flatMap { HourKey(iso8601: $0.iso8601) } == key)
    }
}
