import UAAuditAudit

/// What `uaaudit run` has counted since its state began keeping totals: the source of the
/// Prometheus counters, which must only grow.
///
/// The state's hours are pruned after the history window; these totals never are. They are
/// updated in memory with the run's other changes and committed with the state, so a run
/// that dies before its commit adds nothing and the next run counts the same lines once.
package struct RunTotals: Codable, Equatable, Sendable {
    /// Requests per class (every class the rules have had while counting).
    package var classes: [String: Int64] = [:]
    /// Requests whose UA could not be classified (a PCRE2 match or heap limit was hit).
    package var errors: Int64 = 0
    package var outOfScope: Int64 = 0
    package var malformed: Int64 = 0
    /// Lines stamped more than ``RunSettings/futureHorizonSeconds`` after the run's clock:
    /// in no hour (absent from states written before uaaudit kept them, and while none was seen).
    package var future: Int64? = nil
    /// When counting began: the first run that kept totals (ISO-8601 UTC).
    var since: String
    /// The `now` of the last run that read every log without an error (seconds since the epoch).
    package var lastSuccess: Int64?
    /// Breached hours dropped unsent because their alert stayed pending past twice
    /// `history_hours` (absent until one was).
    package var alertsExpired: Int64? = nil

    enum CodingKeys: String, CodingKey {
        case classes, errors, malformed, since, future
        case outOfScope = "out_of_scope"
        case lastSuccess = "last_success"
        case alertsExpired = "alerts_expired"
    }

    package init(since: String) {
        self.since = since
    }

    /// Adds the counts of a run's lines (only the logs that were read and advanced): `hours`,
    /// named, and the malformed and future lines of `result`.
    mutating func add(_ hours: [HourKey: HourCounts], of result: AuditResult) {
        for hour in hours.values {
            for (name, n) in hour.classes { classes[name, default: 0] += n }
            errors += hour.errors
            outOfScope += hour.outOfScope
        }
        malformed += result.malformed
        if result.future > 0 { future = (future ?? 0) + result.future }
    }

    /// The totals after a run: `saved` (or new ones starting at `generatedAt`) plus the run's
    /// lines, with the success time moved to `now` when no log failed.
    package static func after(
        _ saved: RunTotals?, adding hours: [HourKey: HourCounts], of result: AuditResult, now: Int64,
        succeeded: Bool, generatedAt: String
    ) -> RunTotals {
        var totals = saved ?? RunTotals(since: generatedAt)
        totals.add(hours, of: result)
        if succeeded { totals.lastSuccess = now }
        return totals
    }
}
