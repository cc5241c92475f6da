import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Lines stamped past the horizon wait per hour, bounded, and go into their hour when the
/// clock reaches all of it.
@Suite struct FutureLinesTests {
    let rules = RuleSet.builtin()

    func counts(_ cls: String, _ n: Int64) -> [Int64] {
        var c = [Int64](repeating: 0, count: rules.classCount + 2)
        c[rules.classNames.firstIndex(of: cls)!] = n
        return c
    }

    func hour(_ i: Int) -> HourKey {
        let base = HourKey(year: 2026, month: 12, day: 1, hour: 0, offsetMinutes: 0)
        return HourKey(localHour: base.localHour + Int64(i), offsetMinutes: 0)
    }

    @Test func parksPerHourAndKeepsAtMostTheBound() {
        var state = RunState()
        let bound = RunEngine.FutureLines.maxWaitingHours
        var future: [HourKey: [Int64]] = [:]
        for i in 0...bound { future[hour(i)] = counts("inconsistent", 2) }
        let unplaced = RunEngine.FutureLines.park(future, in: &state, rules: rules)
        // The latest hour finds no room: its 2 lines are in no hour.
        #expect(unplaced == 2)
        #expect(state.waiting?.count == bound)
        #expect(state.waiting?[hour(bound).iso8601] == nil)
        // A known hour still takes lines when the table is full.
        #expect(RunEngine.FutureLines.park([hour(0): counts("other", 3)], in: &state, rules: rules) == 0)
        #expect(state.waiting?[hour(0).iso8601]?.counts.classes == ["inconsistent": 2, "other": 3])
    }

    @Test func releasesOnlyTheHoursTheClockHasReached() {
        var state = RunState()
        _ = RunEngine.FutureLines.park(
            [hour(0): counts("inconsistent", 2), hour(1): counts("other", 5)], in: &state, rules: rules)
        // A run keeps no UAs of a waiting hour: a hand-edited state's are not released.
        state.waiting?[hour(0).iso8601]?.counts.uas = ["forged": 5000]
        var read: [HourKey: HourCounts] = [:]
        let configuration = ScanConfiguration(format: try! BuiltinFormats.named("ua_log"), rules: rules)
        let released = RunEngine.FutureLines.release(
            upTo: hour(0).startInstant, from: &state, into: &read, configuration: configuration)
        #expect(released == 2)
        #expect(read.keys.map(\.iso8601) == [hour(0).iso8601])
        let alert = try? #require(read[hour(0)])
        #expect(alert?.classes == ["inconsistent": 2, "urlsession": 0, "webview": 0, "other": 0, "missing": 0])
        #expect(alert?.uasApproximate == true)
        #expect(alert?.uas == [:])
        #expect(state.waiting?.keys.sorted() == [hour(1).iso8601])
        #expect(
            RunEngine.FutureLines.release(
                upTo: hour(1).startInstant, from: &state, into: &read, configuration: configuration) == 5)
        #expect(state.waiting == nil)
    }
}
