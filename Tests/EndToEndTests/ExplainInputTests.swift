import Foundation
import Testing

/// `explain` tells a report from a log by content (`"schema": "uaaudit.report/…"`), not by the
/// first byte: a JSON-lines access log starts with `{` too.
@Suite struct ExplainInputTests {
    static let format = #"{"time":"$time_iso8601","ua":"$http_user_agent","status":$status,"req":"$request"}"#

    static func jsonLines() -> String {
        (0..<150).map { i in
            let ua = i % 3 == 0 ? Lines.cfnetwork : Lines.urlsession
            return
                #"{"time":"2026-11-29T17:\#(i % 60 < 10 ? "0" : "")\#(i % 60):00+08:00","ua":"\#(ua)","status":200,"req":"GET /api/me HTTP/1.1"}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test func aJSONLinesLogIsScannedNotReadAsAReport() throws {
        let dir = try Scratch()
        let log = try dir.write("access.jsonl", Self.jsonLines())
        let result = try Tool.run(["explain", "2026-11-29T17", "--log-format", Self.format, "--escape", "json", log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.out.hasPrefix("2026-11-29 17:00+08:00"), "\(result.out)")
        #expect(result.out.contains("inconsistent 50 of 150 requests = 33.33%"), "\(result.out)")
    }

    @Test func aReportIsReadAsAReportAndADamagedOneIsAnError() throws {
        let dir = try Scratch()
        let log = try dir.write("access.jsonl", Self.jsonLines())
        let report = dir.path("report.json")
        let scan = try Tool.run(["scan", "-q", "--out", report, "--log-format", Self.format, "--escape", "json", log])
        #expect(scan.status == 0, "\(scan.stderr)")
        let fromReport = try Tool.run(["explain", "2026-11-29T17", report])
        #expect(fromReport.status == 0, "\(fromReport.stderr)")
        #expect(fromReport.out.contains("inconsistent 50 of 150 requests = 33.33%"), "\(fromReport.out)")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: report))
        let damaged = try dir.write("damaged.json", String(decoding: bytes.prefix(bytes.count / 2), as: UTF8.self))
        let broken = try Tool.run(["explain", "2026-11-29T17", damaged])
        #expect(broken.status == 3)
        #expect(broken.stderr.contains("damaged.json"), "\(broken.stderr)")
        #expect(broken.out.isEmpty)
    }

    /// Logs none of whose lines parse: the message is about the format, not a missing hour.
    /// With 100 lines or more it is scan's, and the status is scan's 8; with fewer, exit 2.
    @Test func logsInTheWrongFormatSaySo() throws {
        let dir = try Scratch()
        let log = try dir.write("access.jsonl", Self.jsonLines())
        let result = try Tool.run(["explain", "2026-11-29T17", log])
        let scan = try Tool.run(["scan", "-q", log])
        #expect(scan.status == 8)
        #expect(result.status == 8)
        #expect(result.out.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "uaaudit: \(log): 150 of 150 lines do not match the log format 'ua_log'; no known format parses them"))
        #expect(result.stderr == scan.stderr)

        let few = try dir.write(
            "few.jsonl", String(Self.jsonLines().split(separator: "\n").prefix(99).joined(separator: "\n") + "\n"))
        let short = try Tool.run(["explain", "2026-11-29T17", few])
        #expect(short.status == 2)
        #expect(
            short.stderr
                == "uaaudit: none of the 99 lines matched the log format ua_log; give the format nginx writes "
                + "(--format, --log-format or --nginx-conf; see uaaudit explain --help)\n")
    }

    /// A log mostly in another format: the page of the hour its good lines hold, then scan's
    /// message naming the format that parses the rest, and exit 8.
    @Test func aMostlyMismatchedLogShowsThePageThenTheFormatAndExitsEight() throws {
        let dir = try Scratch()
        let samples = Tool.repoRoot.appendingPathComponent("SampleLogs")
        let mixed =
            try String(contentsOf: samples.appendingPathComponent("combined.log"), encoding: .utf8)
            + String(
                try String(contentsOf: samples.appendingPathComponent("ua_log.log"), encoding: .utf8)
                    .split(separator: "\n").prefix(20).joined(separator: "\n") + "\n")
        let log = try dir.write("mix.log", mixed)
        let result = try Tool.run(["explain", "2024-03-31T23", log])
        let scan = try Tool.run(["scan", "-q", log])
        #expect(scan.status == 8)
        #expect(result.status == 8)
        #expect(result.out.hasPrefix("2024-03-31 23:00+08:00"), "\(result.out)")
        #expect(result.stderr.contains("they parse as 'combined': use --format combined"), "\(result.stderr)")
        #expect(result.stderr == scan.stderr)

        // With a log that cannot be read beside it: both messages, and 8, the higher status.
        let missing = dir.path("missing.log")
        let both = try Tool.run(["explain", "2024-03-31T23", log, missing])
        #expect(both.status == 8)
        #expect(both.out.isEmpty)
        #expect(both.stderr == "uaaudit: \(missing): cannot open: No such file or directory\n" + scan.stderr)
    }

    /// A report is shown as it was made: options for logs given with one are refused, not
    /// silently ignored.
    @Test func optionsForLogsWithAReportAreRefused() throws {
        let dir = try Scratch()
        let log = Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log").path
        let report = dir.path("whole.json")
        #expect(try Tool.run(["scan", "-q", "--out", report, log]).status == 0)
        let one = try Tool.run(["explain", "2024-03-31T23", "--min-requests", "1", report])
        #expect(one.status == 2)
        #expect(one.out.isEmpty)
        #expect(
            one.stderr
                == "uaaudit: --min-requests applies to logs, not to a report: \(report) is shown as it was made; give the logs instead to apply it\n"
        )
        let two = try Tool.run(["explain", "2024-03-31T23", "--format", "combined", "--threshold", "50%", report])
        #expect(two.status == 2)
        #expect(
            two.stderr.hasPrefix("uaaudit: --format, --threshold apply to logs, not to a report: "), "\(two.stderr)")
        let json = try Tool.run(["explain", "2024-03-31T23", "--json", report])
        #expect(json.status == 0, "\(json.stderr)")
    }
}
