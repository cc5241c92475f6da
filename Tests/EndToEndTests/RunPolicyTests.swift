import Foundation
import Testing

/// `uaaudit run`'s hour closing, late lines, alert ledger, lock and state errors.
@Suite struct RunPolicyTests {
    func state(_ h: RunHarness) throws -> [String: Any] {
        try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
    }

    /// The ledger's hours (without a channel they stay pending).
    func ledger(_ h: RunHarness) throws -> [[String]] {
        try h.ledger().keys.sorted().map { [$0] }
    }

    @Test func anHourClosesAfterItsEndPlusGraceByTheClockOnly() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        try h.append(1, hour: 11, minute: 3)
        try h.run(now: "2026-11-29T11:04:00Z")
        #expect(try h.hours().map { $0.2 } == [false, false])
        try h.run(now: "2026-11-29T11:05:00Z")  // 11:00 + 300 s grace: closed
        #expect(try h.hours().map { $0.2 } == [true, false])
        // A backfill read at 13:15 closes every hour that ended by 13:10 (10:00 to 12:00).
        let b = try RunHarness()
        for hour in 10...13 { try b.append(5, hour: hour) }
        try b.run(now: "2026-11-29T13:15:00Z")
        #expect(try b.hours().map { $0.2 } == [true, true, true, false])
    }

    @Test func lateLinesAreCountedAsLateAndNeverReAlerted() throws {
        let h = try RunHarness()
        try h.append(199, hour: 10)
        try h.append(1, hour: 10, minute: 50, cls: "inconsistent")  // 0.5%: breached
        try h.run(now: "2026-11-29T11:10:00Z")
        #expect(try ledger(h) == [["2026-11-29T10:00:00+00:00"]])
        try h.append(50, hour: 10, minute: 58, cls: "inconsistent")  // late lines for the closed hour
        try h.append(3, hour: 11)
        try h.run(now: "2026-11-29T11:20:00Z")
        let hours = try h.hours()
        #expect(hours.count == 2)
        #expect(hours[0].0 == "2026-11-29T10:00:00+00:00")
        #expect(hours[0].1 == 250)
        #expect(hours[0].2)
        #expect(hours[0].3 == 50)
        #expect(try ledger(h) == [["2026-11-29T10:00:00+00:00"]])
        #expect(try h.reportedClasses() == h.written)
    }

    @Test func aBreachedHourIsAlertedOnceAcrossRuns() throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        try h.append(100, hour: 11)
        for now in ["2026-11-29T10:59:00Z", "2026-11-29T11:06:00Z", "2026-11-29T11:30:00Z", "2026-11-29T12:06:00Z"] {
            #expect(try h.run(now: now).status == 0)
        }
        #expect(try ledger(h) == [["2026-11-29T10:00:00+00:00"]])
        let report = try h.reportJSON()
        let totals = try unwrap(report["totals"] as? [String: Any])
        #expect(totals["alert_hours"] as? [String] == ["2026-11-29T10:00:00+00:00"])
    }

    @Test func aSecondRunWaitsThenExitsFiveTouchingNothing() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [h.state + ".lock", "sleep", "5"]
        try holder.run()
        defer { holder.terminate() }
        usleep(300_000)
        let started = Date()
        let result = try h.run(now: "2026-11-29T10:30:00Z", extra: ["--lock-wait", "0.5"])
        #expect(result.status == 5)
        #expect(Date().timeIntervalSince(started) >= 0.5)
        #expect(result.stderr.contains("another uaaudit run holds"))
        #expect(!FileManager.default.fileExists(atPath: h.state))
        #expect(!FileManager.default.fileExists(atPath: h.report))
    }

    @Test(arguments: [
        ("{\"version\": 1, \"logs\": ", "is not valid JSON: unexpected end of file at line 1, column 24 (truncated?)"),
        ("{\"version\": 1,\n \"logs\": {]}", "is not valid JSON: invalid value at line 2, column 11"),
        ("[1]", "is not a state object"),
        ("{\"version\": 9}", "is version 9, newer than this uaaudit reads (2)"),
        ("{\"logs\": {}}", "has no version"),
        (
            "{\"version\": 1, \"logs\": {\"a\": {\"current\": {\"offset\": 1}}}}",
            "is corrupt: missing key 'identity' at .logs.a.current"
        ),
    ])
    func aBadStateFileIsAClearErrorAndIsNeverOverwritten(content: String, reason: String) throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        try Data(content.utf8).write(to: URL(fileURLWithPath: h.state))
        let result = try h.run(now: "2026-11-29T10:30:00Z")
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: state file \(h.state): \(reason); it was left as it is (move it away to start afresh)\n")
        #expect(try String(contentsOfFile: h.state, encoding: .utf8) == content)
        let show = try Tool.run(["state", "show", "--state", h.state])
        #expect(show.status == 2)
        #expect(show.stderr == result.stderr)
        #expect(try String(contentsOfFile: h.state, encoding: .utf8) == content)
    }

    @Test func stateIsPrivateAndReportIsReadable() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        try h.run(now: "2026-11-29T10:30:00Z")
        let stateMode = try FileManager.default.attributesOfItem(atPath: h.state)[.posixPermissions] as? Int
        let reportMode = try FileManager.default.attributesOfItem(atPath: h.report)[.posixPermissions] as? Int
        #expect(stateMode == 0o600)
        #expect(reportMode == 0o644)
        let show = try Tool.run(["state", "show", "--state", h.state])
        #expect(show.status == 0)
        #expect(show.out.contains("reading \(h.log) at byte "))
        #expect(show.out.contains("open hours: \n  2026-11-29T10:00:00+00:00  requests 10\n"))
    }

    /// Whatever the job's umask: the state (it holds the alert ledger) stays private and the
    /// report, page and metrics stay readable by dashboards and node_exporter.
    @Test(arguments: ["077", "000"])
    func modesDoNotDependOnTheUmask(mask: String) throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        let html = h.dir.path("report.html")
        let prom = h.dir.path("uaaudit.prom")
        let result = try h.run(
            now: "2026-11-29T10:30:00Z", extra: ["--html", html, "--prom", prom], launcher: Tool.umask(mask))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try [h.state, h.state + ".lock"].map(Tool.mode) == [0o600, 0o600])
        #expect(try [h.report, html, prom].map(Tool.mode) == [0o644, 0o644, 0o644])
    }

    @Test func configFileGivesEveryKeyAndFlagsOverrideIt() throws {
        let h = try RunHarness()
        try h.append(100, hour: 10)
        try h.append(1, hour: 10, minute: 30, cls: "inconsistent")
        let config = try h.dir.write(
            "uaaudit.json",
            """
            {"version": 1, "logs": ["\(h.log)"], "state": "\(h.state)", "report": "\(h.report)",
             "threshold": "2%", "min_requests": 10, "grace_seconds": 60, "history_hours": 24, "host": "h1"}
            """)
        #expect(try Tool.run(["run", "-q", "--config", config, "--now", "2026-11-29T11:02:00Z"]).status == 0)
        #expect(try h.hours().map { $0.2 } == [true])
        #expect(try ledger(h).isEmpty)  // 1/101 is under 2%
        let bad = try h.dir.write("bad.json", #"{"version": 1, "logs": "not a list"}"#)
        let result = try Tool.run(["run", "--config", bad])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("uaaudit: config \(bad): wrong type at .logs"))
    }

    /// A config's threshold as a JSON number is read from its digits (0.00001 was read through
    /// a `Double` as "1e-05" and refused, exit 2), and the report writes it back in plain decimal.
    @Test(arguments: [("0.00001", 2), ("1e-5", 2), ("\"0.001%\"", 2), ("0.0001", 1)])
    func aConfigThresholdIsAPlainDecimalNumber(threshold: String, alertHours: Int) throws {
        let h = try RunHarness()
        try h.append(10_000, hour: 10)
        try h.append(1, hour: 10, minute: 30, cls: "inconsistent")  // 0.0099%
        try h.append(10_000, hour: 11)
        try h.append(2, hour: 11, minute: 30, cls: "inconsistent")  // 0.02%
        let config = try h.dir.write(
            "uaaudit.json",
            """
            {"version": 1, "logs": ["\(h.log)"], "state": "\(h.state)", "report": "\(h.report)",
             "threshold": \(threshold), "grace_seconds": 60, "history_hours": 24}
            """)
        let result = try Tool.run(["run", "-q", "--config", config, "--now", "2026-11-29T12:02:00Z"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: h.report, encoding: .utf8)
        let expected = alertHours == 2 ? "0.00001" : "0.0001"
        #expect(text.contains("\n  \"threshold\" : \(expected),\n"))
        #expect(try h.hours().filter { $0.2 }.count == 2)
        #expect(try ledger(h).count == alertHours)
    }
}

/// SIGTERM and SIGINT stop a run at the next safe point, without committing anything.
@Suite struct RunSignalTests {
    @Test(arguments: ["after-compute", "after-report"])
    func sigtermStopsWithoutCommitting(point: String) throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        try h.run(now: "2026-11-29T10:20:00Z")
        let committed = try Data(contentsOf: URL(fileURLWithPath: h.state))
        try h.append(5, hour: 10, minute: 30)
        let stopped = try h.run(now: "2026-11-29T10:40:00Z", environment: ["UAAUDIT_TEST_SIGNAL_AT": point])
        #expect(stopped.status == 143)
        #expect(stopped.stderr == "uaaudit: stopped by signal 15 before committing; the next run redoes this one\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.state)) == committed)
        #expect(try h.run(now: "2026-11-29T10:40:00Z").status == 0)
        #expect(try h.reportedClasses() == ["urlsession": 15])
    }
}
