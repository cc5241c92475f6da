import Foundation
import Testing

/// Whatever point `uaaudit run` is killed at, the next run ends with the same report and the
/// same alert ledger as if the killed run had never started.
@Suite(.serialized) struct RunCrashTests {
    /// A scenario: one committed run, then more lines and a rotation, then the run under test.
    static func prepare() throws -> RunHarness {
        let h = try RunHarness()
        try h.append(3000, hour: 9)
        try h.run(now: "2026-11-29T09:30:00Z")
        try h.append(2000, hour: 9, minute: 35)
        try h.append(40, hour: 9, minute: 50, cls: "inconsistent")
        try h.move("access.log", "access.log.1")
        try h.append(1500, hour: 10)
        return h
    }

    static let now = "2026-11-29T10:20:00Z"

    /// The report without `sources` (what the last run itself read: nothing, when the killed
    /// run had already committed) and with the scenario's directory taken out of paths. The
    /// `report_id` and `run_of` hash the log's resolved path, which differs between scenarios;
    /// they are checked to be a run id and a run_of, and the content is the rest of the report.
    func outcome(_ h: RunHarness) throws -> (report: String, ledger: String) {
        var json = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.report))) as? [String: Any])
        json["sources"] = nil
        #expect((json["report_id"] as? String)?.hasPrefix("run-") == true)
        json["report_id"] = nil
        // run_of hashes the host and the log's resolved path too: the same in every report of
        // one scenario, different between scenarios.
        #expect((json["run_of"] as? String)?.hasPrefix("logs-") == true)
        json["run_of"] = nil
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        let report = String(decoding: data, as: UTF8.self).replacingOccurrences(of: h.dir.url.path, with: "DIR")
            .replacingOccurrences(of: h.dir.url.path.replacingOccurrences(of: "/", with: "\\/"), with: "DIR")
        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
        let ledger = try JSONSerialization.data(withJSONObject: state["alerts"] ?? [:], options: [.sortedKeys])
        // Hour ids hash the log's path, which differs from scenario to scenario, and so does
        // the report's id, which hashes the hours.
        func sameIDs(_ text: String) -> String {
            text.replacingOccurrences(of: #""id":"[0-9a-f]{16}""#, with: #""id":"ID""#, options: .regularExpression)
                .replacingOccurrences(
                    of: #""report_id":"run-[0-9a-f]{32}""#, with: #""report_id":"RID""#, options: .regularExpression)
        }
        return (sameIDs(report), sameIDs(String(decoding: ledger, as: UTF8.self)))
    }

    func baseline() throws -> (report: String, ledger: String) {
        let h = try Self.prepare()
        #expect(try h.run(now: Self.now).status == 0)
        let result = try outcome(h)
        #expect(result.ledger.contains("2026-11-29T09:00:00+00:00"))
        return result
    }

    @Test(arguments: ["after-compute", "after-report", "after-deliver", "before-commit", "after-commit"])
    func killedAtAnInjectedPointThenRerun(point: String) throws {
        let expected = try baseline()
        let h = try Self.prepare()
        let killed = try h.run(now: Self.now, environment: ["UAAUDIT_TEST_CRASH_AT": point])
        #expect(killed.status == 9)  // SIGKILL
        #expect(try h.run(now: Self.now).status == 0)
        let got = try outcome(h)
        #expect(got.report == expected.report)
        #expect(got.ledger == expected.ledger)
    }

    @Test func oneHundredRandomKillsInARow() throws {
        let expected = try baseline()
        var generator = SystemRandomNumberGenerator()
        var killedBeforeExit = 0
        // Kill moments are drawn within the fastest of three uninterrupted runs on this
        // machine (a fixed 60 ms window let a fast run finish before about half of the kills).
        var fastest = 1.0
        for _ in 0..<3 {
            let probe = try Self.prepare()
            let started = Date()
            try probe.run(now: Self.now)
            fastest = min(fastest, Date().timeIntervalSince(started))
        }
        let window = UInt32(max(5_000, fastest * 1_000_000))
        for _ in 0..<100 {
            let h = try Self.prepare()
            let process = Process()
            process.executableURL = Tool.binary
            process.arguments = [
                "run", "-q", "--state", h.state, "--out", h.report, "--now", Self.now, "--host", "test-host", h.log,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...window, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killedBeforeExit += 1 }
            #expect(try h.run(now: Self.now).status == 0)
            let got = try outcome(h)
            #expect(got.report == expected.report)
            #expect(got.ledger == expected.ledger)
            // A temp file a killed write left behind is removed by the next write.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: h.dir.url.path)
                .filter { $0.contains(".tmp.") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
        // Most kills must land inside the run, or the test proves little.
        #expect(killedBeforeExit >= 50)
    }
}
