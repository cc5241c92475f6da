/// Builds the ``Report`` of an ``AuditResult``: shares, breaches and top lists are computed here.
package enum ReportBuilder {
    package static func build(_ result: AuditResult, configuration: ScanConfiguration, generatedAt: String) -> Report {
        let rules = configuration.rules
        let names = rules.classNames
        let classCount = rules.classCount
        var totalCounts = [Int64](repeating: 0, count: classCount + 2)
        var hours: [Report.HourEntry] = []
        var inputs: [InsightReport.HourInput] = []
        for key in result.hours.keys.sorted() {
            let hour = result.hours[key]!
            for slot in 0..<(classCount + 2) { totalCounts[slot] += hour.counts[slot] }
            let requests = result.requests(in: hour)
            let alertCount = hour.counts[rules.alertIndex]
            hours.append(
                Report.HourEntry(
                    hour: key.iso8601,
                    requests: requests,
                    classes: classMap(names, hour.counts),
                    shares: Dictionary(
                        uniqueKeysWithValues: names.enumerated().map { ($1, share(hour.counts[$0], requests)) }),
                    share: share(alertCount, requests),
                    alert: AlertPolicy.breaches(
                        alertCount: alertCount, requests: requests, threshold: configuration.threshold,
                        minRequests: configuration.minRequests),
                    errors: hour.counts[classCount],
                    outOfScope: hour.counts[classCount + 1],
                    top: top(hour.alertUAs, limit: configuration.top),
                    topApproximate: hour.untrackedAlertUAs > 0))
            if hour.detailsDropped { hours[hours.count - 1].detailsDropped = true }
            inputs.append(
                InsightReport.HourInput(
                    key: key, requests: requests, classes: hours[hours.count - 1].classes,
                    insight: HourInsight(hour, configuration: configuration)))
        }
        InsightReport.fill(&hours, from: inputs, configuration: configuration)
        let requests = totalCounts[0...classCount].reduce(0, +)
        let malformed = result.malformed
        let outOfScope = totalCounts[classCount + 1]
        let totals = Report.Totals(
            lines: requests + malformed + outOfScope,
            requests: requests,
            malformed: malformed,
            outOfScope: outOfScope,
            errors: totalCounts[classCount],
            classes: classMap(names, totalCounts),
            share: share(totalCounts[rules.alertIndex], requests),
            alertHours: hours.filter(\.alert).map(\.hour),
            driftAlertHours: configuration.insight.alertsOnDrift
                ? hours.filter { $0.drift?.alert == true }.map(\.hour) : nil)
        let format = configuration.format
        return Report(
            generatedAt: generatedAt,
            sources: result.sources.map {
                Report.SourceEntry(path: $0.path, lines: $0.lines, bytes: $0.bytes, error: $0.error)
            },
            format: Report.FormatEntry(name: format.name, string: format.string, escape: format.escape),
            rules: rules.summary,
            threshold: configuration.threshold.value,
            minRequests: configuration.minRequests,
            totals: totals,
            hours: hours,
            malformedSamples: result.samples.map {
                Report.SampleEntry(
                    path: $0.path, line: $0.line, text: ReportText.render($0.text), reason: $0.reason.rawValue)
            })
    }

    static func classMap(_ names: [String], _ counts: [Int64]) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, counts[$0]) })
    }

    static func share(_ count: Int64, _ requests: Int64) -> Double {
        requests > 0 ? Double(count) / Double(requests) : 0
    }

    /// The `limit` most frequent UAs, ties broken by the UA text, so the list is stable.
    static func top(_ counts: [[UInt8]: Int64], limit: Int) -> [Report.TopEntry] {
        let entries = counts.map { (ua: ReportText.render($0.key), count: $0.value) }
        let sorted = entries.sorted { $0.count != $1.count ? $0.count > $1.count : $0.ua < $1.ua }
        return sorted.prefix(limit).map { Report.TopEntry(ua: $0.ua, count: $0.count) }
    }
}
