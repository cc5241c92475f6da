import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The findings behind exit 8's hint: which format the malformed lines parse as, which were
/// tried, and where the first kept sample failed.
@Suite struct FormatMismatchTests {
    static let combinedLine =
        #"1.2.3.4 - - [01/Dec/2026:13:05:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8""#
    static let uaLogLine = LogLines.uaLog(ua: LogLines.urlsession)

    /// An input of `count` lines, every one malformed, with its first line as the kept sample.
    static func mismatched(_ path: String, first: String, count: Int64 = 120)
        -> (AuditResult.Source, [AuditResult.Sample])
    {
        let source = AuditResult.Source(path: path, lines: count, malformed: count)
        return (source, [AuditResult.Sample(path: path, line: 1, text: Array(first.utf8), reason: .format)])
    }

    @Test func aUALogLogCheckedAsCombinedFindsUALog() throws {
        let dir = try TempDirectory()
        let log = try dir.write("access.log", Array(String(repeating: Self.uaLogLine + "\n", count: 120).utf8))
        let combined = try BuiltinFormats.named("combined")
        // A scan under combined refuses these lines: what ends the UA is not the line's end.
        #expect(!FormatProbe.parses(Array(Self.uaLogLine.utf8), as: combined))
        let (source, samples) = Self.mismatched(log, first: Self.uaLogLine)
        let found = FormatMismatch.mismatches(sources: [source], samples: samples, format: combined, nginxConf: nil)
        #expect(found.count == 1)
        #expect(found.first?.source == source)
        #expect(found.first?.fit == FormatMismatch.Fit(label: "ua_log", name: "ua_log", nginxConf: nil))
        #expect(found.first?.tried == ["ua_log"])
        // The probe reads combined's UA up to the line's last quote, which ua_log's line ends
        // with: it cannot say where the sample fails, so the hint shows none.
        #expect(found.first?.sample == nil)
        #expect(found.first?.failure == nil)
    }

    @Test func aCombinedLogCheckedAsUALogFindsCombinedAndWhereTheSampleFailed() throws {
        let dir = try TempDirectory()
        let log = try dir.write("access.log", Array(String(repeating: Self.combinedLine + "\n", count: 104).utf8))
        let (source, samples) = Self.mismatched(log, first: Self.combinedLine, count: 104)
        let found = FormatMismatch.mismatches(
            sources: [source], samples: samples, format: try BuiltinFormats.named("ua_log"), nginxConf: nil)
        #expect(found.map(\.fit) == [FormatMismatch.Fit(label: "combined", name: "combined", nginxConf: nil)])
        #expect(
            found.first?.failure?.description
                == "$http_user_agent failed at byte 70: expected a value followed by '\" rt=', which the line lacks from there"
        )
    }

    /// The nginx config's log_formats come first, and the one that parses the lines is named
    /// with the file that defines it.
    @Test func theNginxConfsLogFormatThatParsesThemIsNamed() throws {
        let dir = try TempDirectory()
        let line = #"1.2.3.4 [01/Dec/2026:13:05:00 +0000] 200 "curl/8""#
        let log = try dir.write("access.log", Array(String(repeating: line + "\n", count: 120).utf8))
        let conf = try dir.write(
            "nginx.conf",
            Array(#"http { log_format short '$remote_addr [$time_local] $status "$http_user_agent"'; }"#.utf8))
        let (source, samples) = Self.mismatched(log, first: line)
        let found = FormatMismatch.mismatches(
            sources: [source], samples: samples, format: try BuiltinFormats.named("ua_log"), nginxConf: conf)
        #expect(found.map(\.fit) == [FormatMismatch.Fit(label: "short", name: "short", nginxConf: conf)])
        // With nginx.conf given, ua_log is tried too (the config's may differ from the built-in).
        #expect(found.first?.tried == ["combined", "short", "ua_log", "combined"])
    }

    @Test func noFormatFitsAndAllTriedAreListed() throws {
        let (source, samples) = Self.mismatched("-", first: "not a log line at all")
        let found = FormatMismatch.mismatches(
            sources: [source], samples: samples, format: try BuiltinFormats.named("ua_log"), nginxConf: nil)
        #expect(found.count == 1)
        #expect(found.first?.fit == nil)
        #expect(found.first?.tried == ["combined"])
        #expect(
            found.first?.failure?.description
                == "$remote_addr failed at byte 1: expected a value followed by ' - ', which the line lacks from there")
    }

    /// Under ``AuditResult/Source/mismatchMinimumLines`` lines an input is no mismatch, but a
    /// short one that a known format parses is still found; one that no format parses is not.
    @Test func shortInputsAreFoundOnlyWhenAFormatFits() throws {
        let uaLog = try BuiltinFormats.named("ua_log")
        let (fits, fitsSamples) = Self.mismatched("-", first: Self.combinedLine, count: 60)
        #expect(FormatMismatch.mismatches(sources: [fits], samples: fitsSamples, format: uaLog, nginxConf: nil).isEmpty)
        #expect(
            FormatMismatch.shortInputs(sources: [fits], samples: fitsSamples, format: uaLog, nginxConf: nil)
                .map(\.fit?.name) == ["combined"])
        let (junk, junkSamples) = Self.mismatched("-", first: "junk", count: 60)
        #expect(
            FormatMismatch.shortInputs(sources: [junk], samples: junkSamples, format: uaLog, nginxConf: nil).isEmpty)
    }

    /// An input whose read failed (here, damage that explains its malformed lines) is not a
    /// mismatch: its error is what the CLI reports.
    @Test func damageThatExplainsTheLinesIsNoMismatch() throws {
        let (read, samples) = Self.mismatched("/var/log/nginx/access.log.2.gz", first: Self.combinedLine)
        var source = read
        source.error = "unexpected end of gzip data"
        source.unverified = true
        source.firstMalformed = 50
        #expect(source.damageExplainsMalformed)
        #expect(
            FormatMismatch.mismatches(
                sources: [source], samples: samples, format: try BuiltinFormats.named("ua_log"), nginxConf: nil
            ).isEmpty)
    }
}
