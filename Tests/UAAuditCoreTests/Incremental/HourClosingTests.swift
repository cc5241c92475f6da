import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Whether a run may close hours, given the logs it could not read and since when.
@Suite struct HourClosingTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var failed: [String]
        var since: [String: Int64]?
        var now: Int64
        var readiness: RunEngine.Readiness
        var sinceAfter: [String: Int64]?
        var description: String { name }
    }

    static let hold = RunSettings.unreadableHoldSeconds

    static let cases: [Case] = [
        Case(name: "every log read", failed: [], since: nil, now: 1000, readiness: .complete, sinceAfter: nil),
        Case(
            name: "a log read again is forgotten", failed: [], since: ["b": 10], now: 1000, readiness: .complete,
            sinceAfter: nil),
        Case(
            name: "a log unreadable from now holds hours", failed: ["b"], since: nil, now: 1000, readiness: .held,
            sinceAfter: ["b": 1000]),
        Case(
            name: "unreadable for exactly the hold: still held", failed: ["b"], since: ["b": 1000],
            now: 1000 + hold, readiness: .held, sinceAfter: ["b": 1000]),
        Case(
            name: "unreadable for longer: hours close, incomplete", failed: ["b"], since: ["b": 1000],
            now: 1001 + hold, readiness: .incomplete, sinceAfter: ["b": 1000]),
        Case(
            name: "one long-unreadable log and one new: held by the new one", failed: ["b", "c"],
            since: ["b": 1000], now: 1001 + hold, readiness: .held, sinceAfter: ["b": 1000, "c": 1001 + hold]),
        Case(
            name: "a clock set back before the log failed: held", failed: ["b"], since: ["b": 5000], now: 100,
            readiness: .held, sinceAfter: ["b": 5000]),
        Case(
            name: "a log no longer configured is forgotten", failed: [], since: ["gone": 10], now: 1000,
            readiness: .complete, sinceAfter: nil),
    ]

    @Test(arguments: cases)
    func readiness(_ c: Case) {
        var state = RunState()
        state.unreadableSince = c.since
        let got = RunEngine.Readiness.of(failed: c.failed, configured: ["a", "b", "c"], state: &state, now: c.now)
        #expect(got == c.readiness)
        #expect(state.unreadableSince == c.sinceAfter)
    }

    static let dueCases: [(Int64, Bool)] = [
        (3899, false), (3900, true), (172_800, true), (0, false), (-86_400, false),
    ]

    @Test(arguments: dueCases)
    func anHourIsDueAtItsEndPlusGrace(offset: Int64, due: Bool) {
        let key = HourKey(localHour: 490_000, offsetMinutes: 0)
        #expect(RunEngine.isDue(key, now: key.startInstant + offset, graceSeconds: 300) == due)
    }

    /// (seconds after the hour's start, backfill with a 48 h window): the hour ends at 3,600.
    static let backfillCases: [(Int64, Bool)] = [
        (3600, false), (3600 + 48 * 3600 - 1, false), (3600 + 48 * 3600, true), (10 * 86_400, true), (0, false),
    ]

    @Test(arguments: backfillCases)
    func anHourIsBackfillOnceItEndedTheWindowBeforeTheClock(offset: Int64, backfill: Bool) {
        let key = HourKey(localHour: 490_000, offsetMinutes: 0)
        #expect(RunEngine.isBackfill(key, now: key.startInstant + offset, historyHours: 48) == backfill)
    }

    static let policyCases: [(Int64, Int64, Bool)] = [
        (99, 0, false), (99, 99, false), (100, 0, false), (100, 1, true), (1000, 1, false), (1000, 2, true),
        (0, 0, false),
    ]

    @Test(arguments: policyCases)
    func theOnePolicy(requests: Int64, alertCount: Int64, breaches: Bool) {
        // 0.1% and 100 requests: 1 of 100 is 1% (over), 1 of 1000 is exactly 0.1% (not over).
        #expect(
            AlertPolicy.breaches(alertCount: alertCount, requests: requests, threshold: .standard, minRequests: 100)
                == breaches)
        var hour = RunState.HourState()
        hour.breached = true
        #expect(!AlertPolicy.alerts(hour))
        hour.closed = true
        #expect(AlertPolicy.alerts(hour))
    }
}
