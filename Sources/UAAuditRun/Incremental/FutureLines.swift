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
                var parked = HourCounts(errors: counts[rules.classCount], outOfScope: counts[rules.classCount + 1])
                for (i, name) in rules.classNames.enumerated() where counts[i] > 0 { parked.classes[name] = counts[i] }
                hour.counts.add(parked)
                waiting[iso] = hour
            }
            state.waiting = waiting.isEmpty ? nil : waiting
            return unparked
        }

        /// Takes out of the waiting hours those that start at or before `reached` and adds them
        /// to `read`, the hours this run read; returns how many lines that was. Every class they
        /// were counted under stays counted, whatever the rules are now.
        static func release(
            upTo reached: Int64, from state: inout RunState, into read: inout [HourKey: HourCounts],
            configuration: ScanConfiguration
        ) -> Int64 {
            guard var waiting = state.waiting else { return 0 }
            let rules = configuration.rules
            let width = rules.classCount + 2 + rules.classCount * StatusCounts.slots
            // What a part of an hour without any detail shows: no status, path or client.
            let noDetail = HourInsight(
                AuditResult.HourTally(counts: [Int64](repeating: 0, count: width)), configuration: configuration)
            var released: Int64 = 0
            for (iso, hour) in waiting {
                guard let key = HourKey(iso8601: iso), key.startInstant <= reached else { continue }
                waiting[iso] = nil
                var counts = hour.counts
                // A run keeps no UAs of a waiting hour: any there were written by hand.
                counts.uas = [:]
                for name in rules.classNames where counts.classes[name] == nil { counts.classes[name] = 0 }
                // Their UAs were not kept: the hour's list of them is approximate.
                counts.uasApproximate = counts[name: rules.alertClass] > 0
                counts.insight = noDetail
                released += counts.lines
                read[key, default: HourCounts()].add(counts)
            }
            state.waiting = waiting.isEmpty ? nil : waiting
            return released
        }
    }
}
