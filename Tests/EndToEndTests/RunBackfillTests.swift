import Foundation
import Testing

/// Hours older than `history_hours` that a run reads (a first run on a week-old log, a
/// backfill, a run after days without one) are in that run's report: closed, `backfill`,
/// counted in its totals, never alerted, then pruned from the state.
@Suite struct RunBackfillTests {
    /// nginx's `$time_local` (UTC) for an instant.
    static func timeLocal(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss"
        return formatter.string(from: date) + " +0000"
    }

    /// (hour prefix, requests, closed, alert, backfill) per hour of the report.
    func hours(_ h: RunHarness) throws -> [String] {
        let hours = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        return try hours.map {
            let hour = String(try unwrap($0["hour"] as? String).prefix(13))
            let requests = try unwrap($0["requests"] as? Int)
            let closed = try unwrap($0["closed"] as? Bool)
            let alert = try unwrap($0["alert"] as? Bool)
            let backfill = $0["backfill"] as? Bool
            let status = $0["alert_status"] as? String
            return "\(hour) \(requests) closed=\(closed) alert=\(alert) backfill=\(backfill.map(String.init) ?? "-")"
                + " status=\(status ?? "-")"
        }
    }

    func totals(_ h: RunHarness) throws -> [String: Any] { try unwrap(try h.reportJSON()["totals"] as? [String: Any]) }

    /// The issue's case as an operator meets it: no `--now`, the machine's own clock, and a log
    /// whose lines are six days old. Every line is in the report, the breached hour is not paged.
    @Test func aFirstRunOnASixDayOldLogReportsEveryHourItRead() throws {
        let h = try RunHarness()
        // Three whole hours, starting at the top of the hour six days (144 h) before now.
        let now = Date()
        let start = (Int(now.timeIntervalSince1970) / 3600 - 144) * 3600
        var text = ""
        for hour in 0..<3 {
            for i in 0..<50 {
                let cls = hour == 1 && i < 2 ? "inconsistent" : "urlsession"  // hour 1: 4% inconsistent
                let instant = Date(timeIntervalSince1970: TimeInterval(start + hour * 3600 + i * 60))
                text += h.line(Self.timeLocal(instant), cls) + "\n"
            }
        }
        try h.appendRaw(text, to: h.log)
        let run = try Tool.run(
            [
                "run", "--state", h.state, "--out", h.report, "--host", "test-host", "--min-requests", "10",
                "--fail-on-alert", h.log,
            ])
        // Reported, not alerted: no exit 1, no pending alert, one line on stderr that says why.
        #expect(run.status == 0, "\(run.stderr)")
        let iso = { (k: Int) in
            Timestamps.hour(start + k * 3600)
        }
        #expect(
            try hours(h) == [
                "\(iso(0)) 50 closed=true alert=false backfill=true status=-",
                "\(iso(1)) 50 closed=true alert=true backfill=true status=-",
                "\(iso(2)) 50 closed=true alert=false backfill=true status=-",
            ])
        let first = try totals(h)
        #expect(first["lines"] as? Int == 150)
        #expect(first["requests"] as? Int == 150)
        #expect(
            first["classes"] as? [String: Int]
                == ["urlsession": 148, "inconsistent": 2, "webview": 0, "other": 0, "missing": 0])
        #expect(first["pending_alert_hours"] == nil)
        #expect(try h.ledger().isEmpty)
        let hourText = try unwrap((try h.reportJSON()["hours"] as? [[String: Any]])?[1]["hour"] as? String)
        #expect(
            run.stderr.contains(
                "the breached hour \(hourText) was already history_hours (48 h) old when first read: "
                    + "reported with \"backfill\": true and not alerted; raise history_hours to alert on older hours"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("dropped unsent"), "\(run.stderr)")
        #expect(
            run.out.contains(
                "\nbackfill hours: 3 (1 over), already history_hours old when first read:\n  reported, never alerted\n"),
            "\(run.out)")
        // Pruned from the state as before: the next run counts nothing twice.
        let again = try Tool.run(["run", "--state", h.state, "--out", h.report, "--host", "test-host", h.log])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try hours(h) == [])
        #expect(try totals(h)["lines"] as? Int == 0)
    }

    /// With `--now`, the window's edge: an hour that ended exactly `history_hours` before the
    /// clock is backfill, the hour after it is alerted as usual.
    @Test func theWindowsEdgeDecidesWhichHoursAreBackfill() throws {
        let h = try RunHarness()
        for hour in [9, 10] {
            try h.append(150, hour: hour)
            try h.append(2, hour: hour, minute: 12, cls: "inconsistent")  // 1.3%
        }
        // 10:00-11:00 ended 10 h before 21:00; 09:00-10:00 ended 11 h before: with 10 h, backfill.
        let run = try h.run(now: "2026-11-29T21:00:00Z", extra: ["--history-hours", "11"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try hours(h) == [
                "2026-11-29T09 152 closed=true alert=true backfill=true status=-",
                "2026-11-29T10 152 closed=true alert=true backfill=- status=pending",
            ])
        #expect(try h.ledgerHours("pending") == ["2026-11-29T10:00:00+00:00"])
        #expect(try totals(h)["lines"] as? Int == 304)
        #expect(
            run.stderr.contains(
                "the breached hour 2026-11-29T09:00:00+00:00 was already history_hours (11 h) old when first read")
        )
        // explain says what the report's flag means, under its verdict.
        let explain = try Tool.run(["explain", "2026-11-29T09", h.report])
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(
            explain.out.contains(
                "ALERT\n  webview 0 · urlsession 150 · inconsistent 2 · other 0 · missing 0\n"
                    + "  (backfill: already history_hours old when first read; reported, never alerted)\n"),
            "\(explain.out)")
        // The backfill hour is gone from the state; the pending one stays.
        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
        #expect((state["hours"] as? [String: Any])?.keys.sorted() == ["2026-11-29T10:00:00+00:00"])
    }

    /// An hour first read inside the window is no backfill, however late it closes: a cron job
    /// down for days, or a one-hour window whose runs come once an hour, still pages it.
    @Test(arguments: [
        ("2026-11-29T10:30:00Z", "2026-12-01T23:00:00Z", "48"),  // read while open, closed 2.5 days on
        ("2026-11-29T11:00:00Z", "2026-11-29T12:00:00Z", "1"),  // history_hours 1, hourly runs
    ])
    func anHourReadInsideTheWindowIsAlertedWhenItClosesLate(first: String, second: String, history: String) throws {
        let h = try RunHarness()
        try h.append(120, hour: 10)
        try h.append(20, hour: 10, minute: 12, cls: "inconsistent")
        let extra = ["--history-hours", history, "--fail-on-alert", "--heartbeat"]
        #expect(try h.run(now: first, extra: extra).status == 0)
        try h.append(100, hour: 10, minute: 50)
        var late = try h.run(now: second, extra: extra)
        if history == "48" {
            // Days-old lines read as new, days after the last run, look like a clock days ahead:
            // held, and held again while the log stays quiet; the operator who knows the clock is
            // right (the cron job was down) says so once.
            #expect(late.status == 0, "\(late.stderr)")
            #expect(
                late.stderr.contains(
                    "is 2 d 12 h ahead of both the last run's and the newest line seen (2026-11-29T10:50:59Z)"),
                "\(late.stderr)")
            #expect(try h.ledger().isEmpty)
            let again = try h.run(now: second, extra: extra)
            #expect(again.stderr.contains("uaaudit_clock_held 1"))
            #expect(again.stderr.contains("gaps 0, exit 0, clock held (no hour decided)\n"), "\(again.stderr)")
            late = try h.run(now: second, extra: extra + ["--trust-clock"])
            #expect(late.stderr.contains("run: lines 0, malformed 0, hours closed 1,"), "\(late.stderr)")
        } else {
            #expect(late.stderr.contains("run: lines 100, malformed 0, hours closed 1,"), "\(late.stderr)")
        }
        #expect(late.status == 1, "\(late.stderr)")
        #expect(try hours(h) == ["2026-11-29T10 240 closed=true alert=true backfill=- status=pending"])
        #expect(try h.ledgerHours("pending") == ["2026-11-29T10:00:00+00:00"])
        #expect(!late.stderr.contains("backfill"), "\(late.stderr)")
    }

    /// A first run on a week of one app's traffic: the hours whose details a run does not keep
    /// are blind to drift, so the first hour with details is not "new" against them.
    @Test func aFirstRunOnAWeekOfTrafficMakesNoFalseDriftAlert() throws {
        let h = try RunHarness()
        var text = ""
        for day in 28...30 {
            for hour in 0..<24 {
                let stamp = String(format: "%02d/Nov/2026:%02d:10:%02d +0000", day, hour, 0)
                for _ in 0..<20 { text += h.line(stamp, "urlsession") + "\n" }
            }
        }
        try h.appendRaw(text, to: h.log)
        let run = try h.run(
            now: "2026-12-01T00:30:00Z", extra: ["--alert-new-family", "5%", "--fail-on-alert", "--heartbeat"])
        #expect(run.status == 0, "\(run.stderr)")
        let hours = try unwrap(try h.reportJSON()["hours"] as? [[String: Any]])
        #expect(hours.count == 72)
        #expect(hours.filter { ($0["drift"] as? [String: Any])?["alert"] as? Bool == true }.count == 0)
        #expect(hours.filter { $0["backfill"] as? Bool == true }.count == 24)
        #expect(try totals(h)["lines"] as? Int == 1440)
        #expect(try h.ledger().isEmpty)
        #expect(run.stderr.contains("run: lines 1440, malformed 0, hours closed 72,"), "\(run.stderr)")
    }

    /// Several breached backfill hours: one line for any number, with the first and last.
    @Test func manyBreachedBackfillHoursAreNamedInOneLine() throws {
        let h = try RunHarness()
        for hour in 1...4 {
            try h.append(150, hour: hour)
            try h.append(2, hour: hour, minute: 12, cls: "inconsistent")
        }
        let run = try h.run(now: "2026-12-05T00:00:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try hours(h).count == 4)
        #expect(try totals(h)["lines"] as? Int == 608)
        #expect(
            run.stderr
                == "uaaudit: 4 breached hours (2026-11-29T01:00:00+00:00 to 2026-11-29T04:00:00+00:00) were already "
                + "history_hours (48 h) old when first read: reported with \"backfill\": true and not alerted; "
                + "raise history_hours to alert on older hours\n")
        #expect(try h.ledger().isEmpty)
    }
}

private enum Timestamps {
    /// The report's hour text in UTC ("2026-12-01T13:00:00+00:00") of an hour's start instant.
    static func hour(_ start: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(start)))
    }
}
