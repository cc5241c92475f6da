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
                "the breached hour \(hourText) ended history_hours (48 h) or more before the run's clock when read: "
                    + "reported with \"backfill\": true and not alerted (a first run on an old log); "
                    + "raise history_hours to alert on older hours"), "\(run.stderr)")
        #expect(!run.stderr.contains("dropped unsent"), "\(run.stderr)")
        #expect(
            run.out.contains(
                "\nbackfill hours: 3 (1 over), already history_hours old when read: reported,\n  never alerted\n"),
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
                "the breached hour 2026-11-29T09:00:00+00:00 ended history_hours (11 h) or more before the run's clock")
        )
        // The backfill hour is gone from the state; the pending one stays.
        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
        #expect((state["hours"] as? [String: Any])?.keys.sorted() == ["2026-11-29T10:00:00+00:00"])
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
                == "uaaudit: 4 breached hours (2026-11-29T01:00:00+00:00 to 2026-11-29T04:00:00+00:00) ended history_hours "
                + "(48 h) or more before the run's clock when read: reported with \"backfill\": true and not alerted "
                + "(a first run on an old log); raise history_hours to alert on older hours\n")
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
