import UAAuditAudit
import UAAuditInput

/// The one place an hour's figures are made: every hour entry of scan's report, `run`'s report
/// and `merge` comes from ``entry(hour:classes:errors:outOfScope:top:topApproximate:limit:alert:)``,
/// and every report's totals from ``totals(of:classNames:alertClass:malformed:driftAlerts:)``.
///
/// The counts come from different places (a scan's tallies, the state's hours, the sums of
/// several reports); requests, shares, the top list's order and cut, and the totals are
/// computed here from them, and whether the hour alerts is ``AlertPolicy``'s to say.
package enum HourFigures {
    /// The entry of one hour. `classes` holds every class of the rules (missing ones count 0)
    /// and any class `given` counted that the rules lack (a `run` state's hour counted under
    /// other rules): its lines stay counted, under its name and in the requests. `top` is every
    /// alert-class UA known with its count, in any order.
    package static func entry(
        hour: HourKey, classes given: [String: Int64], classNames: [String], alertClass: String, errors: Int64,
        outOfScope: Int64, top: [Report.TopEntry], topApproximate: Bool, limit: Int,
        alert: (_ alertCount: Int64, _ requests: Int64) -> Bool
    ) -> Report.HourEntry {
        var classes = [String: Int64](uniqueKeysWithValues: classNames.map { ($0, 0) })
        for (name, n) in given where n != 0 || classes[name] != nil { classes[name] = n }
        let requests = classes.values.reduce(0, +) + errors
        let alertCount = classes[alertClass] ?? 0
        return Report.HourEntry(
            hour: hour.iso8601, requests: requests, classes: classes,
            shares: classes.mapValues { share($0, requests) },
            share: share(alertCount, requests),
            alert: alert(alertCount, requests),
            errors: errors, outOfScope: outOfScope, top: ordered(top, limit: limit),
            topApproximate: topApproximate)
    }

    /// A count's share of the requests; 0 for an hour without requests.
    static func share(_ count: Int64, _ requests: Int64) -> Double {
        requests > 0 ? Double(count) / Double(requests) : 0
    }

    /// The `limit` most frequent UAs, ties broken by the UA text, so the list is stable.
    static func ordered(_ entries: [Report.TopEntry], limit: Int) -> [Report.TopEntry] {
        Array(entries.sorted { $0.count != $1.count ? $0.count > $1.count : $0.ua < $1.ua }.prefix(limit))
    }

    /// A report's totals, summed from its hour entries. `driftAlerts`: whether the report
    /// lists drift alert hours (only when a drift alert is configured).
    package static func totals(
        of hours: [Report.HourEntry], classNames: [String], alertClass: String, malformed: Int64, driftAlerts: Bool
    ) -> Report.Totals {
        var classes = [String: Int64](uniqueKeysWithValues: classNames.map { ($0, 0) })
        var errors: Int64 = 0
        var outOfScope: Int64 = 0
        for hour in hours {
            for (name, n) in hour.classes { classes[name, default: 0] += n }
            errors += hour.errors
            outOfScope += hour.outOfScope
        }
        let requests = classes.values.reduce(0, +) + errors
        return Report.Totals(
            lines: requests + malformed + outOfScope, requests: requests, malformed: malformed,
            outOfScope: outOfScope, errors: errors, classes: classes,
            share: share(classes[alertClass] ?? 0, requests),
            alertHours: hours.filter(\.alert).map(\.hour),
            driftAlertHours: driftAlerts ? hours.filter { $0.drift?.alert == true }.map(\.hour) : nil)
    }
}
