import Foundation
import Testing

/// Hours close on the clock, after every log was read: a line dated ahead, a lagging log, and
/// a clock that jumps back or days forward never close an hour early or alert it wrongly.
@Suite struct RunClockTests {
    func reportedOther(_ h: RunHarness) throws -> Int? { (try totals(h)["classes"] as? [String: Int])?["other"] }
    func totals(_ h: RunHarness) throws -> [String: Any] { try unwrap(try h.reportJSON()["totals"] as? [String: Any]) }

    /// (hour, requests, closed, alert) per hour of the report.
    func alerts(_ h: RunHarness) throws -> [(String, Int, Bool, Bool)] {
        let hours = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        return try hours.map {
            (
                String(try unwrap($0["hour"] as? String).prefix(13)), try unwrap($0["requests"] as? Int),
                try unwrap($0["closed"] as? Bool), try unwrap($0["alert"] as? Bool)
            )
        }
    }

    @Test func aLineDatedAYearAheadClosesNothingAndCountsInNoHour() throws {
        let h = try RunHarness()
        try h.append(2000, hour: 10)
        try h.append(2, hour: 10, minute: 12, cls: "inconsistent")  // 0.0999% so far: not over 0.1%
        try h.appendRaw(h.line("29/Nov/2027:10:15:00 +0000", "inconsistent") + "\n", to: h.log)
        #expect(try h.run(now: "2026-11-29T10:20:00Z").status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 2002, false, false)"#])
        #expect(try totals(h)["future"] as? Int == 1)
        // The rest of the hour: 2500 requests, 5 inconsistent (0.2%), closed by the clock at 11:05.
        try h.append(498, hour: 10, minute: 40)
        try h.append(3, hour: 10, minute: 41, cls: "inconsistent")
        #expect(try h.run(now: "2026-11-29T11:04:59Z").status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 2503, false, false)"#])
        #expect(try h.run(now: "2026-11-29T11:05:00Z").status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 2503, true, true)"#])
        #expect(try totals(h)["alert_hours"] as? [String] == ["2026-11-29T10:00:00+00:00"])
        #expect(try totals(h)["future"] as? Int == 1)
        #expect(try h.ledgerHours("pending") == ["2026-11-29T10:00:00+00:00"])
    }

    @Test func anOpenHourOverTheThresholdDoesNotAlertYet() throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 12, cls: "inconsistent")  // 1.3% so far
        let run = try Tool.run(["run", "--state", h.state, "--out", h.report, "--now", "2026-11-29T10:30:00Z", h.log])
        #expect(run.status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 152, false, false)"#])
        #expect(try totals(h)["alert_hours"] as? [String] == [])
        #expect(run.out.contains("1.316% ~\n") && !run.out.contains("1.316% !"))
        #expect(run.out.contains("open hours (marked ~): 1; an hour alerts only once it closes\n"))
        #expect(run.out.contains("alert hours (marked !): 0 of 1"))
    }

    @Test func aLaggingLogHoldsHoursUntilItHasBeenUnreadableForTwoHours() throws {
        let h = try RunHarness()
        let lagging = h.dir.path("b.log")
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 12, cls: "inconsistent")
        func run(_ now: String) throws -> Tool.Result {
            try Tool.run(["run", "-q", "--state", h.state, "--out", h.report, "--now", now, h.log, lagging])
        }
        #expect(try run("2026-11-29T11:06:00Z").status == 3)  // b.log is missing: held
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 152, false, false)"#])
        #expect(try run("2026-11-29T13:06:00Z").status == 3)  // unreadable for exactly 2 h: still held
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 152, false, false)"#])
        #expect(try run("2026-11-29T13:06:01Z").status == 3)  // longer: it no longer holds the hour
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 152, true, true)"#])
        let hour = try unwrap((try h.reportJSON()["hours"] as? [[String: Any]])?.first)
        #expect(hour["incomplete"] as? Bool == true)
        // The lagging log comes back with lines for that hour: late, counted, not re-alerted.
        try h.append(5, hour: 10, minute: 50, to: lagging)
        #expect(try run("2026-11-29T13:10:00Z").status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 157, true, true)"#])
        #expect(try h.hours().map(\.3) == [5])
        #expect(try h.ledger().count == 1)
    }

    @Test func aLogReadAgainReleasesTheHoldAtOnce() throws {
        let h = try RunHarness()
        let lagging = h.dir.path("b.log")
        try h.append(150, hour: 10)
        func run(_ now: String) throws -> Tool.Result {
            try Tool.run(["run", "-q", "--state", h.state, "--out", h.report, "--now", now, h.log, lagging])
        }
        #expect(try run("2026-11-29T11:06:00Z").status == 3)
        try h.append(1, hour: 10, minute: 59, to: lagging)
        #expect(try run("2026-11-29T11:07:00Z").status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 151, true, false)"#])
        let hour = try unwrap((try h.reportJSON()["hours"] as? [[String: Any]])?.first)
        #expect(hour["incomplete"] == nil)
    }

    /// A run whose clock is behind the log's (a backfill with --now, a log host whose clock is
    /// ahead) reads lines of hours yet to come: they count in those hours, which stay open
    /// until the clock reaches them, then close and alert. Nothing read is left uncounted.
    @Test func linesAheadOfTheClockCountInTheirHoursAndAlertOnceTheyClose() throws {
        let h = try RunHarness()
        try h.append(1000, hour: 10)
        try h.append(1000, hour: 11)
        try h.append(995, hour: 12)
        try h.append(5, hour: 12, minute: 30, cls: "inconsistent")  // 0.5%: breached
        let early = try Tool.run(["run", "-q", "--state", h.state, "--out", h.report, "--now", "2026-11-29T11:10:00Z", h.log])
        #expect(early.status == 0)
        #expect(early.stderr == "")
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 1000, true, false)"#, #"("2026-11-29T11", 1000, false, false)"#,
                #"("2026-11-29T12", 1000, false, false)"#,
            ])
        #expect(try totals(h)["future"] == nil)
        #expect(try h.run(now: "2026-11-29T13:10:00Z").status == 0)
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 1000, true, false)"#, #"("2026-11-29T11", 1000, true, false)"#,
                #"("2026-11-29T12", 1000, true, true)"#,
            ])
        #expect(try h.ledgerHours("pending") == ["2026-11-29T12:00:00+00:00"])
    }

    /// Beyond the history window ahead, a line is in no hour yet, and the run says so: it waits
    /// in the state, and the first run whose clock reaches its hour counts it there.
    @Test func aLineBeyondTheHistoryWindowAheadWaitsForTheClockAndTheRunSaysSo() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        try h.appendRaw(h.line("01/Dec/2026:10:21:00 +0000", "other") + "\n", to: h.log)  // 48 h + 1 min ahead
        try h.appendRaw(h.line("01/Dec/2026:10:20:00 +0000", "other") + "\n", to: h.log)  // exactly 48 h: its hour
        let run = try Tool.run(["run", "-q", "--state", h.state, "--out", h.report, "--now", "2026-11-29T10:20:00Z", h.log])
        #expect(run.status == 0)
        #expect(
            run.stderr
                == "uaaudit: 1 line stamped more than 48 h after the run's clock (2026-11-29T10:20:00Z) counted in "
                + "totals.future; they wait in the state, and count in their hours when the clock reaches them: "
                + "check the clock of the host that writes the log, and --now\n")
        #expect(try totals(h)["future"] as? Int == 1)
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 10, false, false)"#, #"("2026-12-01T10", 1, false, false)"#,
            ])
        #expect(try Tool.run(["state", "show", "--state", h.state]).out.contains(
            "waiting for the clock to reach their hours: 1 lines in 1 hours "
                + "(2026-12-01T10:00:00+00:00 to 2026-12-01T10:00:00+00:00)\n"))
        // Not before the clock reaches all of its hour (its start and an hour, less the window).
        let early = try Tool.run(["run", "-q", "--state", h.state, "--out", h.report, "--now", "2026-11-29T10:59:58Z", h.log])
        #expect(early.stderr == "")
        #expect(try alerts(h).map(\.1) == [10, 1])
        let reached = try Tool.run(["run", "-q", "--state", h.state, "--out", h.report, "--now", "2026-11-29T10:59:59Z", h.log])
        #expect(reached.status == 0)
        #expect(reached.stderr == "uaaudit: 1 line stamped ahead of an earlier run's clock, kept in the state, now counted in its hour\n")
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 10, false, false)"#, #"("2026-12-01T10", 2, false, false)"#,
            ])
        #expect(try reportedOther(h) == 2)
        #expect(try totals(h)["future"] as? Int == 1)
        #expect(!(try Tool.run(["state", "show", "--state", h.state]).out.contains("waiting for the clock")))
    }

    @Test func aClockThatJumpsBackReopensNothingAndLinesAheadOfItWaitInTheirHour() throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 12, cls: "inconsistent")
        try h.append(150, hour: 11)
        #expect(try h.run(now: "2026-11-29T12:06:00Z").status == 0)
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 152, true, true)"#, #"("2026-11-29T11", 150, true, false)"#,
            ])
        try h.append(4, hour: 10, minute: 33, cls: "inconsistent")  // late for the closed hour 10
        try h.append(7, hour: 12, minute: 20)  // ahead of a clock set back to 10:30: hour 12, open
        #expect(try h.run(now: "2026-11-29T10:30:00Z").status == 0)
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 156, true, true)"#, #"("2026-11-29T11", 150, true, false)"#,
                #"("2026-11-29T12", 7, false, false)"#,
            ])
        #expect(try h.hours().map(\.3) == [4, 0, 0])
        #expect(try totals(h)["future"] == nil)
        #expect(try h.ledger().count == 1)
    }

    @Test func daysForwardPendingHoursOutliveTheHistoryThenExpireLoudly() throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 12, cls: "inconsistent")
        try h.append(150, hour: 11)
        #expect(try h.run(now: "2026-11-29T11:06:00Z").status == 0)
        // Two days on (history 48 h), the log quiet: a cron job down for two days looks like a
        // clock two days ahead, and is held until a line arrives or the operator says so.
        let held = try h.run(now: "2026-12-01T12:00:00Z")
        #expect(held.stderr.contains("is 2 d ahead of both the last run's and the newest line seen"), "\(held.stderr)")
        #expect(try alerts(h).map(\.2) == [true, false])
        // Told: the pending hour 10 is kept; the healthy hour 11, read inside the window and
        // closed only now, is shown once with its verdict (not backfill), then forgotten.
        #expect(try h.run(now: "2026-12-01T12:00:00Z", extra: ["--trust-clock"]).status == 0)
        #expect(
            try alerts(h).map { "\($0)" } == [
                #"("2026-11-29T10", 152, true, true)"#, #"("2026-11-29T11", 150, true, false)"#,
            ])
        let hours = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        #expect(hours[0]["alert_status"] as? String == "pending")
        #expect(hours[0]["backfill"] == nil)
        #expect(hours[1]["backfill"] == nil)
        #expect(try h.run(now: "2026-12-01T12:30:00Z").status == 0)
        #expect(try alerts(h).map { "\($0)" } == [#"("2026-11-29T10", 152, true, true)"#])
        #expect(try totals(h)["pending_alert_hours"] as? [String] == ["2026-11-29T10:00:00+00:00"])
        // Four days (2 × history_hours) after its end and after the run that decided it (11:06),
        // it is dropped, and the run says so.
        #expect(try h.run(now: "2026-12-03T11:05:59Z", extra: ["--trust-clock"]).stderr == "")
        #expect(try h.ledgerHours("pending") == ["2026-11-29T10:00:00+00:00"])
        let expired = try h.run(now: "2026-12-03T11:06:00Z")
        #expect(expired.status == 0)
        #expect(
            expired.stderr
                == "uaaudit: the breached hour 2026-11-29T10:00:00+00:00 ended and was decided at least 2 × history_hours "
                + "before the run's "
                + "clock and is dropped unsent: no alert channel is configured (--webhook, or \"alerts\" in the "
                + "config; \"alerts\": [] for metrics only)\n"
        )
        #expect(try alerts(h).isEmpty)
        #expect(try h.ledger().isEmpty)
    }
}
