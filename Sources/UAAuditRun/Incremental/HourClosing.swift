import UAAuditAudit
import UAAuditInput

/// When `run` closes an hour, and what it records when a closed hour breached.
///
/// Hour H closes when the clock (`--now`) is at least end(H) + grace and every configured log
/// was read to its end in this run. Line timestamps never close an hour: one line dated a
/// year ahead must not close the hours before it. A log that has been unreadable for more
/// than ``RunSettings/unreadableHoldSeconds`` stops holding hours back; the hours that close
/// meanwhile are marked `incomplete`.
extension RunEngine {
    /// Whether this run may close hours.
    enum Readiness: Equatable, Sendable {
        /// Every log was read to its end.
        case complete
        /// Some log was not read, but has been unreadable for longer than the hold: hours
        /// close, marked incomplete.
        case incomplete
        /// Some log was not read and has not been unreadable for long: no hour closes.
        case held

        /// Notes in `state` since when each log has been unreadable (and forgets the ones
        /// read again), then says whether hours may close at `now`.
        static func of(failed: [String], configured: [String], state: inout RunState, now: Int64) -> Readiness {
            var since = state.unreadableSince ?? [:]
            for log in Array(since.keys) where !failed.contains(log) || !configured.contains(log) { since[log] = nil }
            for log in failed where since[log] == nil { since[log] = now }
            state.unreadableSince = since.isEmpty ? nil : since
            if failed.isEmpty { return .complete }
            let held = failed.contains { now - (since[$0] ?? now) <= RunSettings.unreadableHoldSeconds }
            return held ? .held : .incomplete
        }
    }

    /// Whether hour `key` is over at `now`, grace included.
    static func isDue(_ key: HourKey, now: Int64, graceSeconds: Int64) -> Bool {
        now >= key.startInstant + 3600 + graceSeconds
    }

    /// Whether hour `key`, first read at `now`, is already older than the history window: it
    /// ended `historyHours` or more before `now`. Such an hour (a first run on a week-old log, a
    /// backfill of old files) is marked when its first lines are counted, reported by the run
    /// that reads it and counted in its totals, but never alerted: nobody is paged about last
    /// week. An hour first read inside the window is alerted as usual, however late it closes.
    static func isBackfill(_ key: HourKey, now: Int64, historyHours: Int64) -> Bool {
        key.startInstant + 3600 + historyHours * 3600 <= now
    }

    /// Closes the open hours that are due, deciding once whether each breached
    /// (``AlertPolicy``) and whether its drift alerts, and records the ones that alert in the
    /// ledger under their ``HourAlertID``; a backfill hour (``isBackfill(_:now:historyHours:)``,
    /// marked when first read) is decided the same way but recorded nowhere.
    static func close(_ state: inout RunState, settings: RunSettings, readiness: Readiness, generatedAt: String) {
        state.alerts.apply(settings.alertMode, at: generatedAt)
        assignMissingIDs(&state, settings: settings)
        guard readiness != .held else { return }
        let rules = settings.scan.rules
        for (iso, hour) in state.hours.sorted(by: { HourKey.isEarlier($0.key, $1.key) }) where !hour.closed {
            guard let key = HourKey(iso8601: iso), isDue(key, now: settings.now, graceSeconds: settings.graceSeconds)
            else { continue }
            var closing = hour
            closing.closed = true
            if readiness == .incomplete { closing.incomplete = true }
            closing.breached = AlertPolicy.breaches(
                alertCount: closing.counts[name: rules.alertClass], requests: closing.counts.requests,
                threshold: settings.scan.threshold,
                minRequests: settings.scan.minRequests)
            var insight = closing.counts.insight ?? HourInsight()
            insight.driftBreached =
                settings.scan.insight.alertsOnDrift && driftAlert(iso, in: state, settings: settings)
            insight.clients?.freeze()
            // The release sample stays (at most 512 clients): the hour's report stays mergeable.
            closing.counts.insight = insight
            let backfill = closing.backfill == true
            state.hours[iso] = closing
            guard !backfill else { continue }
            var kinds: [HourAlertID.Kind] = []
            if insight.driftBreached == true { kinds.append(.drift) }
            if closing.breached { kinds.append(.share) }
            guard !kinds.isEmpty else { continue }
            state.alerts.record(
                hour: iso, id: HourAlertID.make(host: settings.host, logs: settings.logs, hour: iso, kinds: kinds),
                kinds: kinds, at: generatedAt, mode: settings.alertMode)
        }
    }

    /// Entries migrated from a version 1 state have no id yet: this run's host and logs give it.
    static func assignMissingIDs(_ state: inout RunState, settings: RunSettings) {
        for (hour, entry) in state.alerts.hours where entry.id.isEmpty {
            state.alerts.hours[hour]?.id = HourAlertID.make(
                host: settings.host, logs: settings.logs, hour: hour, kinds: entry.kinds)
        }
    }
}
