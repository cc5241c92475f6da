import UAAuditAudit
import UAAuditInput

/// The range checks on a loaded state's numbers (issue 31): a count, time or offset that no
/// run writes (a hand edit, a damaged or crafted file) is exit 2 naming its key, never a
/// trap when a run adds to it.
///
/// Every count (an hour's classes, errors, out-of-scope, late and UA counts, its statuses,
/// paths, families and clients, the malformed lines per run hour, the totals, an alert's
/// failures) is at least 0, and all of them together at most ``maxCount`` (2^53, the largest
/// integer a JSON reader holds exactly): so no sum a run makes of them (an hour's requests,
/// a report's totals, the counters plus a run's lines) can overflow. Offsets and sizes are
/// within 0...``maxCount``; times (seconds) within ``timeRange`` (years 1 to 9999); a
/// client sample's level within 0...63.
extension RunState {
    /// The most any count, offset or size may be, and all the counts together.
    static let maxCount: Int64 = 1 << 53
    /// Seconds since the epoch from 0001-01-01 to 9999-12-31 23:59:59 UTC.
    static let timeRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// The first number out of its range, named by its key and where it is; nil when none is.
    func outOfRangeValue() -> String? {
        var counts = CountRanges()
        for (log, state) in logs.sorted(by: { $0.key < $1.key }) {
            for tracked in [state.current].compactMap({ $0 }) + state.draining {
                let name = "log \(log), file \(tracked.path)"
                if let problem = Self.offsetProblem(tracked.offset, "\(name): offset") { return problem }
                if let problem = Self.offsetProblem(tracked.size, "\(name): size") { return problem }
            }
            for (i, known) in (state.known ?? []).enumerated() {
                if let problem = Self.offsetProblem(known.size, "log \(log): known[\(i)].size") { return problem }
            }
        }
        for (i, gap) in gaps.enumerated() {
            let name = "gaps[\(i)] (log \(gap.log))"
            if let problem = Self.offsetProblem(gap.fromOffset, "\(name): from_offset") { return problem }
            if let to = gap.toOffset, to < gap.fromOffset || to > Self.maxCount {
                return "\(name): to_offset \(to) is outside \(gap.fromOffset)...\(Self.maxCount)"
            }
        }
        if let problem = Self.timeProblem(newestSeen, "newest_seen") { return problem }
        if let problem = Self.timeProblem(lastRunClock, "last_run_clock") { return problem }
        if let waiting, waiting.count > RunEngine.FutureLines.maxWaitingHours {
            return "waiting holds \(waiting.count) hours, more than \(RunEngine.FutureLines.maxWaitingHours)"
        }
        for hour in (waiting ?? [:]).keys.sorted() where HourKey(iso8601: hour) == nil {
            return "waiting.\(hour) is not an hour (such as 2026-11-29T10:00:00+00:00)"
        }
        for (log, since) in (unreadableSince ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let problem = Self.timeProblem(since, "unreadable_since.\(log)") { return problem }
        }
        if let problem = Self.timeProblem(totals?.lastSuccess, "totals.last_success") { return problem }

        for (hour, state) in hours.sorted(by: { $0.key < $1.key }) {
            counts.checkHour(state, name: "hour \(hour)")
        }
        for (hour, state) in (waiting ?? [:]).sorted(by: { $0.key < $1.key }) {
            counts.checkHour(state, name: "waiting hour \(hour)")
        }
        for (hour, n) in malformed.sorted(by: { $0.key < $1.key }) { counts.add(n, "malformed.\(hour)") }
        if let totals {
            for (name, n) in totals.classes.sorted(by: { $0.key < $1.key }) { counts.add(n, "totals.classes.\(name)") }
            counts.add(totals.errors, "totals.errors")
            counts.add(totals.outOfScope, "totals.out_of_scope")
            counts.add(totals.malformed, "totals.malformed")
            counts.add(totals.future ?? 0, "totals.future")
        }
        for (hour, entry) in alerts.hours.sorted(by: { $0.key < $1.key }) {
            counts.add(Int64(entry.failures), "alerts.hours.\(hour).failures")
        }
        return counts.problem
    }

    static func offsetProblem(_ value: Int64, _ name: String) -> String? {
        (0...maxCount).contains(value) ? nil : "\(name) \(value) is outside 0...\(maxCount)"
    }

    static func timeProblem(_ value: Int64?, _ name: String) -> String? {
        guard let value, !timeRange.contains(value) else { return nil }
        return "\(name) \(value) is outside \(timeRange.lowerBound)...\(timeRange.upperBound) (years 1 to 9999)"
    }
}

/// Adds up a state's counts, keeping the first that is negative or takes the sum past
/// ``RunState/maxCount``.
struct CountRanges {
    private(set) var total: Int64 = 0
    private(set) var problem: String?

    mutating func add(_ value: Int64, _ key: @autoclosure () -> String) {
        guard problem == nil else { return }
        if value < 0 {
            problem = "\(key()) \(value) is negative"
        } else if value > RunState.maxCount {
            problem = "\(key()) \(value) is over \(RunState.maxCount), the most a count may be"
        } else if value > RunState.maxCount - total {
            problem = "\(key()) \(value) takes the state's counts together past \(RunState.maxCount)"
        } else {
            total += value
        }
    }

    mutating func checkHour(_ state: RunState.HourState, name: String) {
        for (cls, n) in state.counts.classes.sorted(by: { $0.key < $1.key }) { add(n, "\(name): classes.\(cls)") }
        add(state.counts.errors, "\(name): errors")
        add(state.counts.outOfScope, "\(name): out_of_scope")
        add(state.late, "\(name): late")
        for (ua, n) in state.counts.uas.sorted(by: { $0.key < $1.key }) {
            add(n, "\(name): uas.\(ua.debugDescription)")
        }
        guard let insight = state.counts.insight else { return }
        for (cls, s) in (insight.statuses ?? [:]).sorted(by: { $0.key < $1.key }) {
            let fields = [
                ("2xx", s.s2xx), ("3xx", s.s3xx), ("4xx", s.s4xx), ("5xx", s.s5xx), ("other", s.other),
                ("401", s.s401), ("403", s.s403),
            ]
            for (field, n) in fields { add(n, "\(name): insight.statuses.\(cls).\(field)") }
        }
        for (path, p) in insight.paths.sorted(by: { $0.key < $1.key }) {
            add(p.count, "\(name): insight.paths.\(path.debugDescription).count")
            add(p.rejected, "\(name): insight.paths.\(path.debugDescription).rejected")
        }
        for (family, byClass) in insight.families.sorted(by: { $0.key < $1.key }) {
            for (cls, n) in byClass.sorted(by: { $0.key < $1.key }) {
                add(n, "\(name): insight.families.\(family.debugDescription).\(cls)")
            }
        }
        if let counts = insight.clients?.frozen {
            if problem == nil, !(0...63).contains(counts.level) {
                problem = "\(name): insight.clients.counts.level \(counts.level) is outside 0...63"
            }
            add(counts.app, "\(name): insight.clients.counts.app")
            add(counts.alert, "\(name): insight.clients.counts.alert")
            add(counts.split, "\(name): insight.clients.counts.split")
        }
    }
}
