import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `uaaudit merge` on the built binary: the merge of the reports of the parts of a log is the
/// report of the whole log; rule sets that differ are refused by name.
@Suite struct MergeTests {
    /// 200 requests in each of three hours at +08:00: 17:00 has 5 inconsistent (2.5%, one of them
    /// a hostile UA), 18:00 has 1 (0.5%), 19:00 none. The instant of 17:00 also comes at +00:00
    /// (4 requests, a bucket of its own as the scan keeps it). Two malformed lines, early.
    static func log() -> [String] {
        var lines: [String] = []
        for i in 0..<600 {
            let hour = ["17", "18", "19"][i % 3]
            let minute = String(format: "%02d", i % 60)
            let ua: String
            if hour == "17" && i % 50 == 0 {
                ua = Lines.cfnetwork
            } else if i == 3 {
                ua = #"\x22><img src=x onerror=alert(1)> com.apple.CFNetwork"#
            } else if i == 301 {
                ua = #"<script>alert(1)</script> com.apple.CFNetwork"#
            } else if i % 100 == 47 {
                ua = "curl/8.\(i % 7)"
            } else if i % 100 == 31 {
                ua = "-"
            } else {
                ua = Lines.urlsession
            }
            lines.append(Lines.uaLog(time: "29/Nov/2026:\(hour):\(minute):00 +0800", ua: ua))
            if i % 150 == 0 {
                lines.append(Lines.uaLog(time: "29/Nov/2026:09:\(minute):00 +0000", ua: Lines.cfnetwork))
            }
        }
        lines.insert("garbage line one", at: 10)
        lines.insert("garbage \u{1B}[2J line two", at: 50)
        return lines
    }

    /// `scan --json` of `lines` as the file `access.log` in a directory of its own, so that every
    /// part's report names the same path; the report is also saved in `reports` as `name`.
    /// Split clients and drift are per report (they cannot be added up), so the scans that a
    /// merge must reproduce leave them out.
    static let additive = ["--client-key", "none", "--baseline-hours", "0"]

    static func scan(
        _ lines: [String], saveAs name: String? = nil, in reports: Scratch? = nil, options: [String] = additive
    ) throws -> (report: [UInt8], file: String) {
        let dir = try Scratch()
        try dir.write("access.log", lines.joined(separator: "\n") + "\n")
        let result = try Tool.run(["scan", "--json", "--threads", "1"] + options + ["access.log"], directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        guard let name, let reports else { return (result.stdout, "") }
        return (result.stdout, try reports.write(name, result.out))
    }

    /// A report's bytes with `generated_at` and `sources` set aside (the rest must be equal).
    static func normalised(_ bytes: [UInt8]) throws -> [UInt8] {
        var report = try ReportEncoding.decode(bytes)
        report.generatedAt = "normalised"
        report.sources = []
        report.reportID = nil
        report.mergedFrom = nil
        return try ReportEncoding.encode(report)
    }

    @Test func theMergeOfTwoHalvesIsTheReportOfTheWholeLog() throws {
        let lines = Self.log()
        let reports = try Scratch()
        let whole = try Self.scan(lines).report
        let first = try Self.scan(Array(lines[..<(lines.count / 2)]), saveAs: "first.json", in: reports)
        let second = try Self.scan(Array(lines[(lines.count / 2)...]), saveAs: "second.json", in: reports)
        let merged = try Tool.run(["merge", "--json", first.file, second.file])
        #expect(merged.status == 0)
        #expect(merged.stderr == "")
        #expect(try Self.normalised(merged.stdout) == (try Self.normalised(whole)))
        // The comparison has something to compare: alert hours, offsets, top lists, samples.
        let report = try ReportEncoding.decode(merged.stdout)
        #expect(report.totals.alertHours == ["2026-11-29T17:00:00+08:00", "2026-11-29T18:00:00+08:00"])
        #expect(
            report.hours.map(\.hour) == [
                "2026-11-29T09:00:00+00:00", "2026-11-29T17:00:00+08:00", "2026-11-29T18:00:00+08:00",
                "2026-11-29T19:00:00+08:00",
            ])
        #expect(report.hours.map(\.requests) == [4, 200, 200, 200])
        #expect(
            report.hours[1].top.map(\.ua) == [Lines.cfnetwork, #""><img src=x onerror=alert(1)> com.apple.CFNetwork"#])
        #expect(report.hours[1].top.map(\.count) == [4, 1])
        #expect(report.malformedSamples.map(\.line) == [11, 51])
        #expect(report.totals.malformed == 2)
        #expect(report.sources.map(\.lines) == [303, 303])
        #expect(report.generatedAt == "1970-01-01T00:00:00Z")
    }

    @Test func threePartsInAnyOrderGiveTheSameCounts() throws {
        let lines = Self.log()
        let parts = [lines[..<100], lines[100..<400], lines[400...]].map { Array($0) }
        let reports = try Scratch()
        let files = try parts.enumerated().map { try Self.scan($1, saveAs: "part\($0).json", in: reports).file }
        let forward = try Tool.run(["merge", "--json"] + files)
        let backward = try Tool.run(["merge", "--json"] + files.reversed())
        let a = try ReportEncoding.decode(forward.stdout)
        let b = try ReportEncoding.decode(backward.stdout)
        #expect(a.hours == b.hours)
        #expect(a.totals == b.totals)
        let wholeReport = try ReportEncoding.decode(try Self.scan(lines).report)
        #expect(a.hours == wholeReport.hours)
    }

    /// An hour found in two reports gets the split clients of the union of their client samples
    /// and the drift worked out again over the merged hours: as the scan of the whole log has them.
    @Test func clientsAndDriftOfHoursInSeveralReportsAreCombined() throws {
        let lines = Self.log()
        let reports = try Scratch()
        // The first report has 17:00 and half of 18:00; the second the other half, 19:00 and 09:00Z.
        let inFirst = lines.enumerated().map { i, line in
            line.contains("2026:17:") || (line.contains("2026:18:") && i % 2 == 0)
        }
        let first = try Self.scan(
            lines.indices.filter { inFirst[$0] }.map { lines[$0] }, saveAs: "a.json", in: reports, options: [])
        let second = try Self.scan(
            lines.indices.filter { !inFirst[$0] }.map { lines[$0] }, saveAs: "b.json", in: reports, options: [])
        let merged = try Tool.run(["merge", "--json", first.file, second.file])
        #expect(merged.status == 0)
        #expect(merged.stderr == "")
        let report = try ReportEncoding.decode(merged.stdout)
        let a = try ReportEncoding.decode(first.report)
        let b = try ReportEncoding.decode(second.report)
        let whole = try ReportEncoding.decode(try Self.scan(lines, options: []).report)
        let shared = Set(a.hours.map(\.hour)).intersection(b.hours.map(\.hour))
        #expect(shared == ["2026-11-29T18:00:00+08:00"])
        #expect(report.hours.map(\.hour) == whole.hours.map(\.hour))
        for (hour, expected) in zip(report.hours, whole.hours) {
            #expect(hour.clients == expected.clients, "\(hour.hour)")
            #expect(hour.drift == expected.drift, "\(hour.hour)")
        }
        // Every line comes from one address: one client an hour, split where the hour had both
        // kinds (09:00Z, the same instant as 17:00+08:00 and first, has only CFNetwork; 19:00 none).
        #expect(report.hours.map(\.hour).first == "2026-11-29T09:00:00+00:00")
        #expect(report.hours.map { $0.clients?.split } == [0, 1, 1, 0])
    }

    @Test func reportsOfDifferentRulesAreRefusedByName() throws {
        let dir = try Scratch()
        try dir.write("access.log", Self.log().joined(separator: "\n") + "\n")
        let builtin = try Tool.run(["scan", "--json", "access.log"], directory: dir.url)
        let other = try Tool.run(
            [
                "scan", "--json", "--rules", Tool.repoRoot.appendingPathComponent("rules/ios-defaults.json").path,
                "access.log",
            ],
            directory: dir.url)
        let a = try dir.write("web-1.json", builtin.out)
        let b = try dir.write("web-2.json", other.out)
        let merged = try Tool.run(["merge", "--json", a, b])
        #expect(merged.status == 2)
        #expect(merged.stdout.isEmpty)
        #expect(
            merged.stderr
                == "uaaudit: \(a) and \(b) were made with different rules (classes webview, urlsession, inconsistent vs "
                + "webview, urlsession, inconsistent, ambiguous, bot, spoofed, browser, other_app); only reports of the "
                + "same rules can be merged\n")
    }

    @Test func thresholdsThatDifferNeedAChoice() throws {
        let dir = try Scratch()
        try dir.write("access.log", Self.log().joined(separator: "\n") + "\n")
        let a = try dir.write("a.json", try Tool.run(["scan", "--json", "access.log"], directory: dir.url).out)
        // Another log with the same hours (one malformed line more): a scan of the same log
        // twice would overlap.
        try dir.write("other.log", "garbage first line\n" + Self.log().joined(separator: "\n") + "\n")
        let b = try dir.write(
            "b.json", try Tool.run(["scan", "--json", "--threshold", "2%", "other.log"], directory: dir.url).out)
        let refused = try Tool.run(["merge", "-q", a, b])
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "uaaudit: \(a) has threshold 0.001 but \(b) has 0.02; give --threshold to choose the merged report's\n"
        )
        let chosen = try Tool.run(["merge", "--json", "--threshold", "1%", a, b])
        #expect(chosen.status == 0)
        let report = try ReportEncoding.decode(chosen.stdout)
        #expect(report.threshold == Threshold(parsing: "0.01")!)
        // Each hour twice: 17:00+08:00 has 10 of 400 (2.5%), over 1%; 18:00 has 2 of 400 (0.5%).
        #expect(report.totals.alertHours == ["2026-11-29T17:00:00+08:00"])
        #expect(report.hours[1].requests == 400)
        #expect(report.hours[1].classes["inconsistent"] == 10)
        #expect(report.hours[2].classes["inconsistent"] == 2)
        #expect(try Tool.run(["merge", "-q", "--fail-on-alert", "--threshold", "1%", a, b]).status == 1)
        #expect(try Tool.run(["merge", "-q", "--fail-on-alert", "--threshold", "5%", a, b]).status == 0)
    }

    @Test func anUnreadableReportIsNamedAndTheOthersAreMerged() throws {
        let dir = try Scratch()
        try dir.write("access.log", Self.log().joined(separator: "\n") + "\n")
        let good = try dir.write("good.json", try Tool.run(["scan", "--json", "access.log"], directory: dir.url).out)
        let junk = try dir.write("junk.json", "{\"schema\": \"something/2\"}")
        let result = try Tool.run(["merge", "--json", good, dir.path("missing.json"), junk])
        #expect(result.status == 3)
        #expect(
            result.stderr == """
                uaaudit: \(dir.path("missing.json")): cannot read: No such file or directory
                uaaudit: \(junk): schema is 'something/2', not uaaudit.report/1

                """)
        #expect(try ReportEncoding.decode(result.stdout).totals.requests == 604)
        #expect(try Tool.run(["merge"]).status == 2)
        #expect(try Tool.run(["merge", dir.path("missing.json")]).status == 3)
    }

    @Test func differentLogFormatsMergeWithANote() throws {
        let samples = Tool.repoRoot.appendingPathComponent("SampleLogs")
        let result = try Tool.run(
            ["merge", "--json", "ua_log.log.expected.json", "combined.log.expected.json"], directory: samples)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "uaaudit: the reports were made from different log formats (ua_log.log.expected.json: ua_log, combined.log.expected.json: combined); the merged report names the first one's\n"
        )
        let report = try ReportEncoding.decode(result.stdout)
        #expect(
            report.totals.classes == ["webview": 48, "urlsession": 98, "inconsistent": 14, "other": 26, "missing": 22])
        #expect(report.format.name == "ua_log")
    }

    @Test func theSummaryAndHelpOfMerge() throws {
        let samples = Tool.repoRoot.appendingPathComponent("SampleLogs")
        let result = try Tool.run(
            ["merge", "ua_log.log.expected.json", "ua_log.log.gz.expected.json"], directory: samples)
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        // Each input's hour had 52 requests, under the minimum of 100; merged, it has 104 and alerts.
        #expect(lines[1] == "2024-03-31 23:00+08:00     104      28      48      10       8      10 9.615% !")
        #expect(lines[3] == "total                      208      48      98      14      26      22 6.731%")
        let help = try Tool.run(["merge", "--help"])
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("Usage: uaaudit merge [options] REPORT.json...\n"))
        #expect(help.out.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(try Tool.run(["help", "merge"]).out == help.out)
    }
}
