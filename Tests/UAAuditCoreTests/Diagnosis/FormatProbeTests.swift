import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Why a line does not match a format: which field, at which byte.
@Suite struct FormatProbeTests {
    static let combinedLine = Array(
        #"1.2.3.4 - - [01/Dec/2026:13:05:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8""#.utf8)

    @Test func combinedLineUnderUALog() throws {
        let failure = FormatProbe.failure(of: Self.combinedLine, in: try BuiltinFormats.named("ua_log"))
        #expect(failure?.variable == "http_user_agent")
        // The UA's value starts at byte 70 and runs to the end, where ua_log wants '" rt=' next.
        #expect(failure?.byte == 70)
        #expect(FormatProbe.failure(of: Self.combinedLine, in: try BuiltinFormats.named("combined")) == nil)
    }

    @Test(
        arguments: [
            ("x [01/Dec/2026:13:05:00 +0000] 2000", "status", 32, "3 digits (an HTTP status)"),
            ("x [yesterday] 200", "time_local", 4, "a time such as 01/Dec/2026:13:05:00 +0000"),
            (
                "x 01/Dec/2026:13:05:00 +0000] 200", "remote_addr", 1,
                "a value followed by ' [', which the line lacks from there"
            ),
            ("[01/Dec/2026:13:05:00 +0000] 200", nil, 1, "'<['"),
        ] as [(String, String?, Int, String)])
    func failures(line: String, variable: String?, byte: Int, expected: String) throws {
        let format = try LogFormat(
            line.hasPrefix("[")
                ? "<[$time_local] $status $http_user_agent" : "$remote_addr [$time_local] $status $http_user_agent",
            name: "t")
        let failure = FormatProbe.failure(of: Array((line + " ua").utf8), in: format)
        #expect(failure?.variable == variable && failure?.byte == byte && failure?.expected == expected)
    }

    @Test func bestFitNeedsMoreThanHalf() throws {
        let combined = try BuiltinFormats.named("combined")
        let uaLog = try BuiltinFormats.named("ua_log")
        #expect(FormatProbe.bestFit([Self.combinedLine], among: [uaLog, combined]) == combined)
        #expect(FormatProbe.bestFit([Self.combinedLine, [0x78], [0x79]], among: [uaLog, combined]) == nil)
    }

    /// A kept sample is cut at 512 bytes: a combined line with a long referer still counts as
    /// combined when it matches as far as it goes; a long line that fails in its first fields
    /// does not, nor does a short one that ends early.
    @Test func aSampleCutInALongFieldStillFitsItsFormat() throws {
        let combined = try BuiltinFormats.named("combined")
        let long = Array(
            (#"1.2.3.4 - - [01/Dec/2026:13:05:00 +0000] "GET / HTTP/1.1" 200 5 "https://example.com/?q="#
                + String(repeating: "a", count: 700) + #"" "curl/8""#).utf8)
        let cut = Array(long.prefix(Tally.sampleTextBytes))
        #expect(FormatProbe.share(of: [long], parsedBy: combined) == 1)
        #expect(FormatProbe.share(of: [cut], parsedBy: combined) == 1)
        let garbage = Array(String(repeating: "x", count: 600).utf8).prefix(Tally.sampleTextBytes)
        #expect(FormatProbe.share(of: [Array(garbage)], parsedBy: combined) == 0)
        #expect(FormatProbe.share(of: [Array(cut.prefix(200))], parsedBy: combined) == 0)
        // A whole line longer than a sample is never taken for a cut one: a whole ua_log line
        // is not combined, however long.
        let uaLog = Array((String(decoding: long, as: UTF8.self) + #" rt=0.000 uct="-" uht="-" urt="-""#).utf8)
        #expect(FormatProbe.share(of: [uaLog], parsedBy: combined) == 0)
        #expect(!FormatProbe.matchesAsFarAsItGoes(long, try BuiltinFormats.named("ua_log")))
    }
}
