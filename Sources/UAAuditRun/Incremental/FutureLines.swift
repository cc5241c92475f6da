import UAAuditAudit
import UAAuditInput

extension RunEngine {
    /// Lines stamped more than the history window ahead of the clock (a log host whose clock
    /// runs ahead, a first run whose clock is behind). Counting them into their hours now would
    /// hold an hour open for as long as they are ahead; dropping them would lose them. They
    /// wait in the state (``RunState/waiting``), per hour, classified, and are counted into
    /// their hour by the first run whose clock has reached it (issue 30).
    package enum FutureLines {
        /// The most hours that wait; lines of further hours are counted in `totals.future` only.
        package static let maxWaitingHours = 1_000

        /// Adds `future` to the waiting hours; returns how many lines found no room.
        static func park(_ future: [HourKey: [Int64]], in state: inout RunState, rules: RuleSet) -> Int64 {
            var waiting = state.waiting ?? [:]
            var unparked: Int64 = 0
            for (key, counts) in future.sorted(by: { $0.key.startInstant < $1.key.startInstant }) {
                let iso = key.iso8601
                guard waiting[iso] != nil || waiting.count < maxWaitingHours else {
                    unparked += counts.reduce(0, +)
                    continue
                }
                var hour = waiting[iso] ?? RunState.HourState()
                for (i, name) in rules.classNames.enumerated() where counts[i] > 0 {
                    hour.classes[name, default: 0] += counts[i]
                }
                hour.errors += counts[rules.classCount]
                hour.outOfScope += counts[rules.classCount + 1]
                waiting[iso] = hour
            }
            state.waiting = waiting.isEmpty ? nil : waiting
            return unparked
        }

        /// Takes out of the waiting hours those that start at or before `reached` and adds them
        /// to `result` as hours read by this run; returns how many lines that was.
        static func release(
            upTo reached: Int64, from state: inout RunState, into result: inout AuditResult, rules: RuleSet
        )
            -> Int64
        {
            guard var waiting = state.waiting else { return 0 }
            let width = rules.classCount + 2 + rules.classCount * StatusCounts.slots
            var released: Int64 = 0
            for (iso, hour) in waiting {
                guard let key = HourKey(iso8601: iso), key.startInstant <= reached else { continue }
                waiting[iso] = nil
                var counts = AuditResult.HourCounts(counts: [Int64](repeating: 0, count: width))
                for (i, name) in rules.classNames.enumerated() { counts.counts[i] = hour.classes[name] ?? 0 }
                counts.counts[rules.classCount] = hour.errors
                counts.counts[rules.classCount + 1] = hour.outOfScope
                // Their UAs were not kept: the hour's list of them is approximate.
                counts.untrackedAlertUAs = counts.counts[rules.alertIndex]
                released += counts.counts.reduce(0, +)
                if var existing = result.hours[key] {
                    existing.add(counts)
                    result.hours[key] = existing
                } else {
                    result.hours[key] = counts
                }
            }
            state.waiting = waiting.isEmpty ? nil : waiting
            return released
        }
    }
}
