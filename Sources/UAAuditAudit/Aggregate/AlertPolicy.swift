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

    /// Whether an hour of merged reports alerts: its summed counts breach, and no `run` among
    /// the inputs had left it open (`closed` false); a scan's hour has no `closed`.
    package static func alerts(
        alertCount: Int64, requests: Int64, threshold: Threshold, minRequests: Int64, closed: Bool?
    ) -> Bool {
        closed != false
            && breaches(alertCount: alertCount, requests: requests, threshold: threshold, minRequests: minRequests)
    }
}
