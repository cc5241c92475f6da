import Foundation
import Testing

/// `uaaudit scan` on the logs a real nginx wrote (SampleLogs/): exact JSON, and the class
/// counts the sender knew (manifest.json, computed from the requests it sent, not from the logs).
@Suite struct SampleLogsTests {
    /// Each sample, and the options that describe its format.
    static let samples: [(file: String, options: [String])] = [
        ("ua_log.log", []),
        ("ua_log.log.gz", []),
        ("malformed.log", []),
        ("combined.log", ["--format", "combined"]),
        ("ua_log_json.log", ["--nginx-conf", "nginx.conf", "--format", "ua_log_json"]),
    ]

    static let directory = Tool.repoRoot.appendingPathComponent("SampleLogs")

    @Test(arguments: samples)
    func scanEqualsTheExpectedReport(file: String, options: [String]) throws {
        let result = try Tool.run(["scan", "--json"] + options + [file], directory: Self.directory)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let expected = try String(
            contentsOf: Self.directory.appendingPathComponent("\(file).expected.json"), encoding: .utf8)
        // The id hashes the file's resolved path and this machine's name (two files are two
        // sources however alike): the committed one was made elsewhere, so only its form is
        // compared; GuardRailTests checks that it is reproducible.
        #expect(Self.withoutReportID(result.out) == Self.withoutReportID(expected))
        #expect(result.out.contains(/"report_id" : "scan-[0-9a-f]{32}"/))
    }

    static func withoutReportID(_ text: String) -> String {
        text.replacing(/"report_id" : "[a-z]+-[0-9a-f]{32}"/, with: #""report_id" : "…""#)
    }

    @Test(arguments: samples)
    func classCountsEqualWhatTheSenderSent(file: String, options: [String]) throws {
        let manifest = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: Self.directory.appendingPathComponent("manifest.json")))
                as? [String: Any])
        let entry = try #require((manifest["files"] as? [String: Any])?[file] as? [String: Any])
        let result = try Tool.run(["scan", "--json", "--threads", "2"] + options + [file], directory: Self.directory)
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let totals = try #require(report["totals"] as? [String: Any])
        #expect((totals["classes"] as? [String: Int]) == (entry["expected_classes"] as? [String: Int]))
        #expect(totals["lines"] as? Int == entry["lines"] as? Int)
        if let malformed = entry["malformed_lines"] as? Int {
            #expect(totals["malformed"] as? Int == malformed)
        } else {
            #expect(totals["malformed"] as? Int == 0)
        }
    }

    @Test func everyFormatOfTheSameRequestsGivesTheSameCounts() throws {
        var counts: [[String: Int]] = []
        for (file, options) in Self.samples where file != "malformed.log" {
            let result = try Tool.run(["scan", "--json"] + options + [file], directory: Self.directory)
            let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
            counts.append(try #require((report["totals"] as? [String: Any])?["classes"] as? [String: Int]))
        }
        #expect(counts.count == 4)
        #expect(counts.allSatisfy { $0 == counts[0] })
        #expect(counts[0] == ["webview": 24, "urlsession": 49, "inconsistent": 7, "other": 13, "missing": 11])
    }
}
