import Foundation
import Testing

/// Rules changed between two runs of one state: every line read stays counted (issue 35). A
/// class the new rules lack keeps its lines under its name, in the requests, the totals and
/// the alert's figures alike, and the run says so once.
@Suite struct RunRulesChangeTests {
    static func rules(legacy: Bool) -> String {
        let legacyRule = legacy ? #"{"class": "legacy", "patterns": ["^curl/"]}, "# : ""
        return """
            {"version": 1, "alert_class": "inconsistent", "rules": [\(legacyRule)
             {"class": "urlsession", "patterns": ["MyApp/"]}, {"class": "inconsistent", "patterns": ["CFNetwork"]}]}
            """
    }

    @Test func anHourCountedUnderAClassTheNewRulesLackKeepsItsLines() throws {
        let h = try RunHarness()
        let withLegacy = try h.dir.write("old.json", Self.rules(legacy: true))
        let without = try h.dir.write("new.json", Self.rules(legacy: false))
        try h.append(100, hour: 10, cls: "other")  // curl/…: legacy under the old rules
        try h.append(2, hour: 10, minute: 20, cls: "inconsistent")
        let first = try h.run(now: "2026-11-29T10:30:00Z", extra: ["--rules", withLegacy])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "")
        let second = try h.run(now: "2026-11-29T11:30:00Z", extra: ["--rules", without])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stderr == """
                uaaudit: the rules are not the ones the state's hours were counted with: hours
                  already counted keep the classes they were given, and lines read from
                  now on are classed by these rules; legacy (100 lines) is no class of
                  these rules and stays counted under its name, in the requests and the
                  report

                """)
        let report = try h.reportJSON()
        let hour = try unwrap((report["hours"] as? [[String: Any]])?.first)
        #expect(hour["requests"] as? Int == 102)
        #expect(
            hour["classes"] as? [String: Int] == [
                "legacy": 100, "urlsession": 0, "inconsistent": 2, "other": 0, "missing": 0,
            ])
        #expect(hour["closed"] as? Bool == true)
        #expect(hour["alert"] as? Bool == true)  // 2 of 102, over 0.1% with at least 100 requests
        let totals = try unwrap(report["totals"] as? [String: Any])
        #expect(totals["lines"] as? Int == 102)
        #expect(totals["requests"] as? Int == 102)
        #expect(try h.reportedClasses() == ["legacy": 100, "inconsistent": 2])
        // Said once: the state now records these rules.
        let third = try h.run(now: "2026-11-29T11:40:00Z", extra: ["--rules", without])
        #expect(third.status == 0)
        #expect(third.stderr == "")
        #expect(try h.reportedClasses() == ["legacy": 100, "inconsistent": 2])
    }

    /// The summary's table has a column for the class the rules lack, after the rules' own.
    @Test func theSummaryListsTheRetiredClass() throws {
        let h = try RunHarness()
        let withLegacy = try h.dir.write("old.json", Self.rules(legacy: true))
        let without = try h.dir.write("new.json", Self.rules(legacy: false))
        try h.append(100, hour: 10, cls: "other")
        try h.append(2, hour: 10, minute: 20, cls: "inconsistent")
        try h.run(now: "2026-11-29T10:30:00Z", extra: ["--rules", withLegacy])
        let result = try Tool.run([
            "run", "--state", h.state, "--out", h.report, "--now", "2026-11-29T11:30:00Z", "--host", "test-host",
            "--rules", without, h.log,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.out.contains("lines 102: requests 102, malformed 0"), "\(result.out)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "hour                  requests urlsess inconsi   other missing  legacy  share")
        #expect(
            lines.dropFirst().first == "2026-11-29 10:00+00:00     102       0       2       0       0     100 1.961% !"
        )
    }
}
