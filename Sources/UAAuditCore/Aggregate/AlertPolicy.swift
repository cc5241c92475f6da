/// The one rule for "this hour alerts": every report, summary, metric and message that says
/// an hour alerts for its share says so through here.
package enum AlertPolicy {
    /// A complete hour's counts breach: at least `minRequests` requests and the alert class's
    /// share strictly above the threshold.
    package static func breaches(
        alertCount: Int64, requests: Int64, threshold: Threshold, minRequests: Int64
    ) -> Bool {
        requests >= minRequests && threshold.isExceeded(count: alertCount, requests: requests)
    }

    /// Whether a `run` hour alerts: only once closed, as decided when it closed (late lines
    /// do not change it). An open hour never alerts, whatever its share so far.
    package static func alerts(_ hour: RunState.HourState) -> Bool {
        hour.closed && hour.breached
    }
}
