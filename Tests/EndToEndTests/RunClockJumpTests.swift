import Foundation
import Testing

/// Issue 30: one run with a wrong clock (an RTC before NTP syncs, a restored VM, a skewed
/// container) loses no line and no alert, and sends none twice: it counts what it reads but
/// closes, prunes and alerts nothing on that clock; the next sane run decides. And an hour
/// closed incomplete while a log was missing is decided again when the log returns.
@Suite struct RunClockJumpTests {
    /// Hour 10 healthy, hour 11 breached (2 of 152 inconsistent, over 0.1%).
    static func traffic(_ h: RunHarness) throws {
        try h.append(150, hour: 10)
        try h.append(150, hour: 11)
        try h.append(2, hour: 11, minute: 30, cls: "inconsistent")
    }

    @Test(arguments: ["2026-11-24T11:40:00Z", "2026-12-04T11:40:00Z"])
    func oneRunWithAClockDaysOffLosesNothingAndAlertsOnce(wrong: String) throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:50:00Z").status == 0)
        try h.append(150, hour: 11)
        try h.append(2, hour: 11, minute: 30, cls: "inconsistent")
        let held = try h.run(now: wrong)
        #expect(held.status == 0, "\(held.stderr)")
        let behind = wrong < "2026-11-29"
        #expect(
            held.stderr.contains(
                behind
                    ? "the clock (2026-11-24T11:40:00Z) is 119 h behind the last run's (2026-11-29T10:50:00Z): this "
                        + "run counted what it read into its hours but closed, pruned and alerted nothing on that clock"
                    : "the clock (2026-12-04T11:40:00Z) is 120 h ahead of the newest line read (2026-11-29T11:30:01Z), "
                        + "more than the history window: this run counted what it read"), "\(held.stderr)")
        // Nothing decided on that clock: no hour closed, none pruned, no alert, nothing lost.
        #expect(try h.hours().map(\.2) == [false, false])
        #expect(try h.ledger().isEmpty)
        let totals = try unwrap(try h.reportJSON()["totals"] as? [String: Any])
        #expect(totals["future"] == nil)
        // The next run with a sane clock decides, every line counted once.
        let sane = try h.run(now: "2026-11-29T12:10:00Z")
        #expect(sane.status == 0, "\(sane.stderr)")
        #expect(try h.hours().map(\.0) == ["2026-11-29T10:00:00+00:00", "2026-11-29T11:00:00+00:00"])
        #expect(try h.hours().map(\.1) == [150, 152])
        #expect(try h.hours().map(\.2) == [true, true])
        #expect(try h.reportedClasses() == ["urlsession": 300, "inconsistent": 2])
        #expect(try h.ledgerHours("pending") == ["2026-11-29T11:00:00+00:00"])
        #expect(try h.ledger().count == 1)
        // And the run after it believes its clock again: nothing held, nothing twice.
        let next = try h.run(now: "2026-11-29T12:40:00Z")
        #expect(!next.stderr.contains("the clock ("))
        #expect(try h.reportedClasses() == ["urlsession": 300, "inconsistent": 2])
        #expect(try h.ledger().count == 1)
    }

    /// The same with the host's clock itself wrong (no --now): Debian's faketime wrapper sets
    /// uaaudit's clock, 5 days behind for one run and 5 days ahead for another, between sane
    /// ones. Every line counted once, the one breached hour alerted once, no false alert.
    @Test(.requires(.faketime)) func theHostsClockFiveDaysOffEitherWayLosesNothing() throws {
        let h = try RunHarness()
        func run(_ clock: String) throws -> Tool.Result {
            try Tool.run(
                ["run", "-q", "--state", h.state, "--out", h.report, "--host", "test-host", h.log],
                environment: ["TZ": "UTC"], launcher: ["/usr/bin/faketime", "-f", "@\(clock)"])
        }
        try h.append(150, hour: 10)
        #expect(try run("2026-11-29 10:50:00").status == 0)
        try h.append(150, hour: 11)
        try h.append(2, hour: 11, minute: 30, cls: "inconsistent")
        let behind = try run("2026-11-24 11:40:00")
        #expect(behind.stderr.contains("is 119 h behind the last run's (2026-11-29T10:50:00Z)"), "\(behind.stderr)")
        try h.append(150, hour: 12)
        let ahead = try run("2026-12-04 12:40:00")
        #expect(ahead.stderr.contains("is 120 h ahead of the newest line read (2026-11-29T12:10:59Z)"), "\(ahead.stderr)")
        #expect(try h.ledger().isEmpty)
        try h.append(150, hour: 13)
        #expect(try run("2026-11-29 13:20:00").status == 0)
        #expect(try h.hours().map(\.1) == [150, 152, 150, 150])
        #expect(try h.hours().map(\.2) == [true, true, true, false])
        #expect(try h.reportedClasses() == ["urlsession": 600, "inconsistent": 2])
        #expect(try h.ledgerHours("pending") == ["2026-11-29T11:00:00+00:00"])
        #expect(try h.ledger().count == 1)
    }

    /// A first run has no last clock: old lines are a backfill, not a clock ahead.
    @Test func aFirstRunOnOldLinesIsABackfillNotAClockAhead() throws {
        let h = try RunHarness()
        try Self.traffic(h)
        let first = try h.run(now: "2026-12-06T10:00:00Z")
        #expect(first.status == 0)
        #expect(!first.stderr.contains("the clock ("))
        #expect(try h.hours().map(\.2) == [true, true])
    }

    /// A log missing past the 2-hour hold: its hours close incomplete without it. When it is
    /// back within the window with the lines that breach, the hour alerts, under its own id.
    @Test func anIncompleteHourIsDecidedAgainWhenTheMissingLogReturns() throws {
        let h = try RunHarness()
        let other = h.dir.path("b.log")
        try h.append(150, hour: 10)
        try h.append(1, hour: 10, to: other)
        func run(_ now: String) throws -> Tool.Result {
            try Tool.run([
                "run", "-q", "--state", h.state, "--out", h.report, "--now", now, "--host", "test-host", h.log, other,
            ])
        }
        #expect(try run("2026-11-29T10:50:00Z").status == 0)
        try FileManager.default.moveItem(atPath: other, toPath: other + ".away")
        #expect(try run("2026-11-29T11:10:00Z").status == 3)
        #expect(try run("2026-11-29T13:20:00Z").status == 3)
        let closed = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        #expect(closed.first?["incomplete"] as? Bool == true)
        #expect(closed.first?["alert"] as? Bool == false)
        #expect(try h.ledger().isEmpty)
        // Back, with the hour's inconsistent lines it held.
        try FileManager.default.moveItem(atPath: other + ".away", toPath: other)
        try h.append(2, hour: 10, minute: 40, cls: "inconsistent", to: other)
        #expect(try run("2026-11-29T13:40:00Z").status == 0)
        let hours = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        let ten = try unwrap(hours.first { $0["hour"] as? String == "2026-11-29T10:00:00+00:00" })
        #expect(ten["alert"] as? Bool == true)
        #expect(ten["incomplete"] == nil)
        #expect(ten["requests"] as? Int == 153)
        #expect(try h.ledgerHours("pending") == ["2026-11-29T10:00:00+00:00"])
        // Decided once: the next run adds nothing.
        #expect(try run("2026-11-29T14:10:00Z").status == 0)
        #expect(try h.ledger().count == 1)
    }
}
