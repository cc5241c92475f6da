import UAAuditAudit
import UAAuditInput

/// The numbers uaaudit gives Prometheus, before they are written (``PrometheusText``).
///
/// The counters mean "requests seen": for `scan`, in the inputs it read; for `run`, since its
/// state began keeping totals (``RunTotals``), so they only grow and `increase()` works over
/// any window. The last-hour gauges describe the newest closed hour: for `run` the newest hour
/// with `closed`, for `scan` the newest hour of the input (a scan has read all there is of it).
package struct PrometheusMetrics: Equatable, Sendable {
    /// One class's request count; ordered as the rules, then `other`, then `missing`.
    struct ClassCount: Equatable, Sendable {
        var name: String
        var count: Int64
    }

    /// The newest closed hour.
    struct LastHour: Equatable, Sendable {
        /// Seconds since the epoch at which the hour starts.
        var start: Int64
        var requests: Int64
        /// The alert class's share of `requests`.
        var share: Double
        /// Over the threshold with at least `min_requests` requests.
        var breached: Bool
        /// A configured User-Agent drift alert fired for the hour (``Report/HourEntry/alerted``
        /// is `breached` or this).
        var driftAlert: Bool = false
    }

    var alertClass: String
    var classes: [ClassCount]
    var errors: Int64
    var malformed: Int64
    var outOfScope: Int64
    var lastHour: LastHour?
    var threshold: Double
    var minRequests: Int64
    /// When the last run that read every input finished (seconds since the epoch); nil when
    /// none has (a scan with an unreadable input).
    var lastSuccess: Int64?
    /// `run` only: alerts that some channel has not accepted yet.
    var alertsPending: Int?
    /// `run` only: breached hours dropped unsent since the state began (pending past twice
    /// `history_hours`).
    var alertsExpired: Int64? = nil
    /// `run` only: whether this run held its clock (``RunEngine/ClockHold``).
    package var clockHeld: Bool? = nil
    /// `run` only: each configured log, and whether this run could read it.
    var logs: [Report.LogEntry]? = nil
    /// Lines the scan (or this run) read, and the malformed share of them; nil when it read
    /// none. Over half with at least 100 lines is exit 8, and the rules' UAAuditLogFormatMismatch.
    var latest: Latest? = nil

    package struct Latest: Equatable, Sendable {
        var lines: Int64
        var malformedRatio: Double

        /// The figures of `lines` read with `malformed` of them malformed; nil when none were read.
        init?(lines: Int64, malformed: Int64) {
            guard lines > 0 else { return nil }
            self.lines = lines
            malformedRatio = Double(malformed) / Double(lines)
        }

        /// The figures of the worst input: the largest malformed share among inputs of at
        /// least 100 lines (else among all), so that one log in the wrong format shows beside
        /// others that are fine (totals would hide it).
        package static func worst(of sources: [AuditResult.Source]) -> Latest? {
            let read = sources.compactMap { Latest(lines: $0.lines, malformed: $0.malformed) }
            let big = read.filter { $0.lines >= 100 }
            return (big.isEmpty ? read : big).max {
                $0.malformedRatio != $1.malformedRatio ? $0.malformedRatio < $1.malformedRatio : $0.lines < $1.lines
            }
        }
    }

    /// The metrics of a `scan` report: counts of the inputs it read.
    package static func scan(_ report: Report, succeededAt: Int64?, sources: [AuditResult.Source] = [])
        -> PrometheusMetrics
    {
        let t = report.totals
        return PrometheusMetrics(
            alertClass: report.rules.alertClass,
            classes: report.classNames.map { ClassCount(name: $0, count: t.classes[$0] ?? 0) },
            errors: t.errors, malformed: t.malformed, outOfScope: t.outOfScope,
            lastHour: report.hours.last.flatMap { lastHour($0) }, threshold: report.threshold.value,
            minRequests: report.minRequests, lastSuccess: succeededAt, alertsPending: nil,
            latest: sources.isEmpty ? Latest(lines: t.lines, malformed: t.malformed) : .worst(of: sources))
    }

    /// `names`, then the other classes `counts` has lines of (counted under rules since changed),
    /// by name: a counter never goes away while its lines are counted.
    static func counted(_ names: [String], _ counts: [String: Int64]) -> [String] {
        let known = Set(names)
        return names + counts.filter { !known.contains($0.key) && $0.value > 0 }.keys.sorted()
    }

    /// The metrics of a `run`: the state's running totals, and the report's newest closed hour
    /// within the history window (a backfill hour is counted in the totals, but never stands for
    /// the last hour: a dashboard or rule on it would page about a week-old hour).
    package static func run(
        _ report: Report, totals: RunTotals, alertsPending: Int, latest: Latest? = nil
    ) -> PrometheusMetrics {
        PrometheusMetrics(
            alertClass: report.rules.alertClass,
            classes: counted(report.rules.classNames, totals.classes).map {
                ClassCount(name: $0, count: totals.classes[$0] ?? 0)
            },
            errors: totals.errors, malformed: totals.malformed, outOfScope: totals.outOfScope,
            lastHour: report.hours.last(where: { $0.closed == true && $0.backfill != true }).flatMap { lastHour($0) },
            threshold: report.threshold.value, minRequests: report.minRequests, lastSuccess: totals.lastSuccess,
            alertsPending: alertsPending, alertsExpired: totals.alertsExpired ?? 0, clockHeld: false, logs: report.logs,
            latest: latest)
    }

    static func lastHour(_ hour: Report.HourEntry) -> LastHour? {
        guard let key = HourKey(iso8601: hour.hour) else { return nil }
        return LastHour(
            start: key.startInstant, requests: hour.requests, share: hour.share, breached: hour.alert,
            driftAlert: hour.drift?.alert == true)
    }
}
