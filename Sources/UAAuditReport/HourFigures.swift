import UAAuditAudit
import UAAuditInput

/// The one place an hour's figures are made: every hour entry of scan's report, `run`'s report
/// and `merge` comes from ``entry(hour:counts:classNames:alertClass:limit:alert:)``,
/// and every report's totals from ``totals(of:classNames:alertClass:malformed:driftAlerts:)``.
///
/// The counts are one ``HourCounts`` wherever they come from (a scan's tallies, the state's
/// hours, the sums of several reports); shares, the top list's order and cut, and the totals
/// are computed here from them, and whether the hour alerts is ``AlertPolicy``'s to say.
package enum HourFigures {
    /// The entry of one hour. Its classes are every class of the rules (missing ones count 0)
    /// and any class `counts` has that the rules lack (a `run` state's hour counted under
    /// other rules): its lines stay counted, under its name and in the requests. The top list
    /// is the `limit` most frequent of the counts' alert-class UAs.
    package static func entry(
        hour: HourKey, counts: HourCounts, classNames: [String], alertClass: String, limit: Int,
        alert: (_ alertCount: Int64, _ requests: Int64) -> Bool
    ) -> Report.HourEntry {
        var named = counts
        named.classes = [String: Int64](uniqueKeysWithValues: classNames.map { ($0, 0) })
        for (name, n) in counts.classes where n != 0 || named.classes[name] != nil { named.classes[name] = n }
        let requests = named.requests
        let alertCount = named[name: alertClass]
        var entry = Report.HourEntry(
            hour: hour.iso8601, requests: requests, classes: named.classes,
            shares: named.classes.mapValues { share($0, requests) },
            share: share(alertCount, requests),
            alert: alert(alertCount, requests),
            errors: counts.errors, outOfScope: counts.outOfScope,
            top: ordered(counts.uas.map { Report.TopEntry(ua: $0.key, count: $0.value) }, limit: limit),
            topApproximate: counts.uasApproximate)
        if counts.detailsDropped { entry.detailsDropped = true }
        return entry
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
        var sum = HourCounts(classes: [String: Int64](uniqueKeysWithValues: classNames.map { ($0, 0) }))
        for hour in hours {
            sum.add(HourCounts(classes: hour.classes, errors: hour.errors, outOfScope: hour.outOfScope))
        }
        let requests = sum.requests
        return Report.Totals(
            lines: sum.lines + malformed, requests: requests, malformed: malformed,
            outOfScope: sum.outOfScope, errors: sum.errors, classes: sum.classes,
            share: share(sum[name: alertClass], requests),
            alertHours: hours.filter(\.alert).map(\.hour),
            driftAlertHours: driftAlerts ? hours.filter { $0.drift?.alert == true }.map(\.hour) : nil)
    }
}

extension HourCounts {
    /// The counts a report's hour shows (its classes, errors, out of scope and top UAs): what
    /// `merge` sums.
    init(_ entry: Report.HourEntry) {
        self.init(classes: entry.classes, errors: entry.errors, outOfScope: entry.outOfScope)
        for item in entry.top { uas[item.ua, default: 0] += item.count }
        uasApproximate = entry.topApproximate
    }
}
