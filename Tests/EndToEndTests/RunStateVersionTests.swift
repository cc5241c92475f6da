import Foundation
import Testing

/// A state written by the release before issue 35 (Fixtures/state-v2, see its README) goes on
/// exactly in today's `run`: its hours keep their shape, and lines waiting in it under a class
/// the new rules lack stay counted when they reach their hour.
@Suite struct RunStateVersionTests {
    static let fixtures = Tool.repoRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/state-v2")

    @Test func aReleasesStateGoesOnExactlyAndItsWaitingLinesKeepTheirClass() throws {
        let h = try RunHarness()
        for name in ["state.json", "access.log", "old-rules.json", "new-rules.json"] {
            try FileManager.default.copyItem(
                at: Self.fixtures.appendingPathComponent(name), to: URL(fileURLWithPath: h.dir.path(name)))
        }
        // The copy has another inode than the file the state saw: point it at the copy.
        var text = try String(contentsOfFile: h.state, encoding: .utf8)
        let attributes = try FileManager.default.attributesOfItem(atPath: h.log)
        let inode = try unwrap(attributes[.systemFileNumber] as? Int)
        let device = try unwrap(attributes[.systemNumber] as? Int)
        text = text.replacingOccurrences(of: "\"inode\" : 5366401", with: "\"inode\" : \(inode)")
        text = text.replacingOccurrences(of: "\"device\" : 65024", with: "\"device\" : \(device)")
        try text.write(toFile: h.state, atomically: false, encoding: .utf8)

        var more = ""
        for i in 0..<3 { more += h.line("29/Nov/2026:10:40:0\(i) +0000", "urlsession") + "\n" }
        for i in 0..<4 { more += h.line("29/Nov/2026:14:05:0\(i) +0000", "urlsession") + "\n" }
        try h.appendRaw(more, to: h.log)
        // As the release ran: from the log's directory, the log named as the state knows it.
        let result = try Tool.run(
            [
                "run", "-q", "--state", "state.json", "--out", "report.json", "--now", "2026-11-29T14:10:00Z",
                "--host", "test-host", "--history-hours", "2", "--rules", "new-rules.json", "access.log",
            ], directory: h.dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "uaaudit: 6 lines stamped ahead of an earlier run's clock, kept in the state, now counted in their hours"
            ),
            "\(result.stderr)")
        #expect(result.stderr.contains("legacy (105 lines) is no class of"), "\(result.stderr)")

        let report = try h.reportJSON()
        let hours = try unwrap(report["hours"] as? [[String: Any]])
        #expect(hours.map { $0["hour"] as? String } == ["2026-11-29T10:00:00+00:00", "2026-11-29T14:00:00+00:00"])
        #expect(hours.map { $0["requests"] as? Int } == [105, 10])
        #expect(
            hours[0]["classes"] as? [String: Int] == [
                "legacy": 100, "urlsession": 3, "inconsistent": 2, "other": 0, "missing": 0,
            ])
        #expect(
            hours[1]["classes"] as? [String: Int] == [
                "legacy": 5, "urlsession": 4, "inconsistent": 1, "other": 0, "missing": 0,
            ])
        #expect(hours.map { $0["alert"] as? Bool } == [true, false])
        #expect(hours.map { $0["closed"] as? Bool } == [true, false])
        // The hour the first run read keeps its insight: the two 403s of its CFNetwork lines.
        let impact = try unwrap(hours[0]["impact"] as? [String: [String: Int]])
        #expect(impact["inconsistent"]?["403"] == 2)
        #expect(impact["legacy"]?["2xx"] == 100)
        let totals = try unwrap(report["totals"] as? [String: Any])
        #expect(totals["lines"] as? Int == 115)
        #expect(totals["requests"] as? Int == 115)

        // Its hours are saved in the shape the release wrote, so the release could read it back.
        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
        #expect(state["version"] as? Int == 2)
        let hour = try unwrap((state["hours"] as? [String: [String: Any]])?["2026-11-29T14:00:00+00:00"])
        #expect(
            Set(hour.keys) == [
                "classes", "errors", "out_of_scope", "uas", "uas_approximate", "late", "closed", "breached", "insight",
            ])
        #expect(
            hour["classes"] as? [String: Int] == [
                "legacy": 5, "urlsession": 4, "inconsistent": 1, "other": 0, "missing": 0,
            ])
        #expect(state["waiting"] == nil)
    }
}
