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
                    ? "the clock (2026-11-24T11:40:00Z) is 4 d 23 h behind the last run's (2026-11-29T10:50:00Z) and "
                        + "no line read vouches for it: this run counted what it read into its hours but closed, "
                        + "pruned and alerted nothing on that clock"
                    : "the clock (2026-12-04T11:40:00Z) is 5 d ahead of both the last run's and the newest line "
                        + "seen (2026-11-29T11:30:01Z): this run counted what it read"), "\(held.stderr)")
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
        #expect(behind.stderr.contains("is 4 d 23 h behind the last run's (2026-11-29T10:50:00Z)"), "\(behind.stderr)")
        try h.append(150, hour: 12)
        let ahead = try run("2026-12-04 12:40:00")
        #expect(
            ahead.stderr.contains("is 5 d ahead of both the last run's and the newest line seen (2026-11-29T12:10:59Z)"),
            "\(ahead.stderr)")
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
    /// (`heldFirst`: the run the log comes back in has a clock 80 minutes behind: it decides
    /// nothing, and the next sane run decides on the lines it counted.)
    @Test(arguments: [false, true]) func anIncompleteHourIsDecidedAgainWhenTheMissingLogReturns(heldFirst: Bool) throws {
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
        #expect(try run("2026-11-29T12:10:00Z").status == 3)
        #expect(try run("2026-11-29T13:20:00Z").status == 3)
        let closed = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        #expect(closed.first?["incomplete"] as? Bool == true)
        #expect(closed.first?["alert"] as? Bool == false)
        #expect(try h.ledger().isEmpty)
        // Back, with the hour's inconsistent lines it held.
        try FileManager.default.moveItem(atPath: other + ".away", toPath: other)
        try h.append(2, hour: 10, minute: 40, cls: "inconsistent", to: other)
        if heldFirst {
            let held = try run("2026-11-29T12:00:00Z")
            #expect(held.stderr.contains("uaaudit_clock_held 1"), "\(held.stderr)")
            #expect(try h.ledger().isEmpty)
        }
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

    /// Third review's cases. A first run whose clock is a year ahead is believed (nothing to
    /// check it against), but the first sane run whose lines vouch for its clock replaces it:
    /// runs are not held for a year.
    @Test func aFirstRunAYearAheadDoesNotHoldTheRunsAfterIt() throws {
        let h = try RunHarness()
        try h.append(1000, hour: 9)
        try h.append(1000, hour: 10)
        #expect(try h.run(now: "2027-11-29T11:10:00Z").status == 0)
        try h.append(1000, hour: 11)
        try h.append(5, hour: 11, minute: 30, cls: "inconsistent")
        let sane = try h.run(now: "2026-11-29T12:10:00Z")
        #expect(!sane.stderr.contains("the clock ("), "\(sane.stderr)")
        #expect(try h.ledgerHours("pending") == ["2026-11-29T11:00:00+00:00"])
        try h.append(1000, hour: 12)
        #expect(!(try h.run(now: "2026-11-29T13:10:00Z").stderr.contains("the clock (")))
        #expect(try h.ledger().count == 1)
    }

    /// A wrong clock for two runs in a row, the second reading no new line, is held both times;
    /// so is a clock hours (not days) ahead, which would close an hour on part of its lines
    /// (7 h, 30 h: a false alert at 2 of 152 that ends at 2 of 2152).
    @Test(arguments: ["2026-12-04T12:10:00Z", "2026-11-30T17:20:00Z", "2026-11-29T18:20:00Z"])
    func aClockAheadHoldsEveryRunUntilASaneOne(wrong: String) throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        try h.append(150, hour: 11)
        try h.append(2, hour: 11, minute: 12, cls: "inconsistent")
        for _ in 0..<2 {
            let held = try h.run(now: wrong)
            #expect(held.stderr.contains("uaaudit_clock_held 1"), "\(held.stderr)")
        }
        #expect(try h.hours().map(\.2) == [true, false])
        #expect(try h.ledger().isEmpty)
        try h.append(2000, hour: 11, minute: 40)
        let sane = try h.run(now: "2026-11-29T12:10:00Z")
        #expect(!sane.stderr.contains("the clock ("), "\(sane.stderr)")
        #expect(try h.hours().map(\.1) == [150, 2152])
        #expect(try h.hours().map(\.2) == [true, true])
        #expect(try h.ledger().isEmpty)
    }

    /// One line stamped 47 h ahead (a skewed host) read by a sane run does not vouch, later,
    /// for a clock that far ahead: a year-ahead run is held, and the sane run after it decides.
    @Test func aLineStampedAheadDoesNotLetAClockAheadBeBelieved() throws {
        let h = try RunHarness()
        try h.append(1000, hour: 10)
        try h.appendRaw(h.line("01/Dec/2026:09:00:00 +0000", "urlsession") + "\n", to: h.log)
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        try h.append(1000, hour: 11)
        try h.append(5, hour: 11, minute: 30, cls: "inconsistent")
        let held = try h.run(now: "2027-11-29T12:10:00Z")
        #expect(held.stderr.contains("uaaudit_clock_held 1"), "\(held.stderr)")
        #expect(try h.ledger().isEmpty)
        #expect(!(try h.run(now: "2026-11-29T12:10:00Z").stderr.contains("the clock (")))
        #expect(try h.ledgerHours("pending") == ["2026-11-29T11:00:00+00:00"])
        #expect(try h.reportedClasses() == ["urlsession": 2001, "inconsistent": 5])
    }

    /// Fourth review, F2: with history_hours 1, held runs outlast a breached hour's pending
    /// window; the run that decides it keeps it pending from then, and it is sent, not dropped.
    @Test func anHourDecidedAfterHeldRunsIsKeptPendingFromWhenItWasDecided() throws {
        let h = try RunHarness()
        let extra = ["--history-hours", "1"]
        try h.append(1000, hour: 11)
        #expect(try h.run(now: "2026-11-29T12:10:00Z", extra: extra).status == 0)
        try h.append(970, hour: 12)
        try h.append(30, hour: 12, minute: 30, cls: "inconsistent")
        try h.append(200, hour: 13)
        let held = try h.run(now: "2026-11-29T16:10:00Z", extra: extra)
        #expect(held.stderr.contains("uaaudit_clock_held 1"), "\(held.stderr)")
        try h.append(1200, hour: 15)
        let decided = try h.run(now: "2026-11-29T16:10:00Z", extra: extra)
        #expect(decided.status == 0, "\(decided.stderr)")
        #expect(!decided.stderr.contains("dropped unsent"), "\(decided.stderr)")
        #expect(try h.ledgerHours("pending") == ["2026-11-29T12:00:00+00:00"])
    }

    /// Fourth review, F3: a clock reset a year back (nginx stamps its lines with it too) is held
    /// against the lines that vouch for the real one; its year-old hour is a backfill against
    /// the last believed clock, reported, never alerted, and not "dropped unsent" (exit 4).
    @Test func aYearOldHourReadByAHeldRunIsBackfillNotALostAlert() throws {
        let h = try RunHarness()
        try h.append(1400, hour: 11)
        #expect(try h.run(now: "2026-11-29T12:10:00Z").status == 0)
        try h.append(500, hour: 12)
        for i in 0..<200 {
            let second = String(format: "%02d", i % 60)
            try h.appendRaw(
                h.line("29/Nov/2025:13:00:\(second) +0000", i < 20 ? "inconsistent" : "urlsession") + "\n", to: h.log)
        }
        let held = try h.run(now: "2025-11-29T13:10:00Z")
        #expect(held.stderr.contains("uaaudit_clock_held 1"), "\(held.stderr)")
        try h.append(200, hour: 13)
        let sane = try h.run(now: "2026-11-29T13:10:00Z")
        #expect(sane.status == 0, "\(sane.stderr)")
        #expect(!sane.stderr.contains("dropped unsent"), "\(sane.stderr)")
        #expect(try h.ledger().isEmpty)
        #expect(try h.reportedClasses() == ["urlsession": 2280, "inconsistent": 20])
    }

    /// Fourth review, F1: a clock 56 minutes ahead of the lines is believed (the lines cannot
    /// tell it from a quiet log) and closes hour 13 on its first 200 lines, healthy. The rest of
    /// the hour, 200 of 3000 inconsistent, arrives late: the hour is alerted then, once.
    @Test func anHourClosedEarlyHealthyIsAlertedWhenItsLateLinesBreach() throws {
        let h = try RunHarness()
        try h.append(1400, hour: 11)
        #expect(try h.run(now: "2026-11-29T12:10:00Z").status == 0)
        try h.append(1000, hour: 12)
        try h.append(200, hour: 13, minute: 5)
        #expect(try h.run(now: "2026-11-29T14:06:00Z").status == 0)
        #expect(try h.hours().map(\.2) == [true, true, true])
        #expect(try h.ledger().isEmpty)
        try h.append(2800, hour: 13, minute: 20)
        try h.append(200, hour: 13, minute: 40, cls: "inconsistent")
        #expect(try h.run(now: "2026-11-29T14:10:00Z").status == 0)
        #expect(try h.hours().map(\.1) == [1400, 1000, 3200])
        #expect(try h.hours().map(\.3) == [0, 0, 3000])
        #expect(try h.ledgerHours("pending") == ["2026-11-29T13:00:00+00:00"])
        #expect(try h.run(now: "2026-11-29T14:40:00Z").status == 0)
        #expect(try h.ledger().count == 1)
    }

    /// Fifth review: late alert-class lines read by a run that may not decide (its clock
    /// held, or a log missing) are decided by the first run that may; and late lines never
    /// page about an hour older than the window.
    @Test(arguments: ["held clock", "older than the window"])
    func lateLinesAreDecidedByTheFirstRunThatMayAndNeverPastTheWindow(_ c: String) throws {
        let h = try RunHarness()
        let extra = c == "held clock" ? [] : ["--history-hours", "2"]
        try h.append(1000, hour: 10)
        try h.append(20, hour: 11)
        #expect(try h.run(now: "2026-11-29T11:10:00Z", extra: extra).status == 0)
        try h.append(50, hour: 10, minute: 50, cls: "inconsistent")
        if c == "held clock" {
            let held = try h.run(now: "2026-11-28T12:10:00Z", extra: extra)
            #expect(held.stderr.contains("uaaudit_clock_held 1"), "\(held.stderr)")
            try h.append(20, hour: 12)
            #expect(try h.run(now: "2026-11-29T12:20:00Z", extra: extra).status == 0)
            #expect(try h.ledgerHours("pending") == ["2026-11-29T10:00:00+00:00"])
        } else {
            try h.append(20, hour: 14)
            #expect(try h.run(now: "2026-11-29T14:20:00Z", extra: extra).status == 0)
            #expect(try h.ledger().isEmpty)
        }
        #expect(try h.reportedClasses() == ["urlsession": 1040, "inconsistent": 50])
    }
}
