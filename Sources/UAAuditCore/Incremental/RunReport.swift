/// The report `uaaudit run` writes: the scan report's schema over the state's hours, each hour
/// with `closed` and `late`, plus the gaps.
package enum RunReport {
    /// The state's hours as drift inputs, by instant.
    static func insightInputs(state: RunState, rules: RuleSet) -> [InsightReport.HourInput] {
        state.hours.compactMap { iso, hour -> InsightReport.HourInput? in
            guard let key = HourKey(iso8601: iso) else { return nil }
            var classes = [String: Int64](uniqueKeysWithValues: rules.classNames.map { ($0, 0) })
            for (name, n) in hour.classes where classes[name] != nil { classes[name] = n }
            return InsightReport.HourInput(
                key: key, requests: classes.values.reduce(0, +) + hour.errors, classes: classes,
                insight: hour.insight ?? HourInsight())
        }.sorted { $0.key < $1.key }
    }

    package static func build(
        state: RunState, sources: [AuditResult.Source], settings: RunSettings, generatedAt: String,
        logs: [Report.LogEntry]? = nil
    ) -> Report {
        let configuration = settings.scan
        let rules = configuration.rules
        let names = rules.classNames
        var totals = [String: Int64](uniqueKeysWithValues: names.map { ($0, 0) })
        var errors: Int64 = 0
        var outOfScope: Int64 = 0
        var hours: [Report.HourEntry] = []
        var inputs: [InsightReport.HourInput] = []
        let keyed = state.hours.compactMap { iso, hour in HourKey(iso8601: iso).map { ($0, hour) } }
        for (key, hour) in keyed.sorted(by: { $0.0 < $1.0 }) {
            var classes = [String: Int64](uniqueKeysWithValues: names.map { ($0, 0) })
            for (name, n) in hour.classes where classes[name] != nil { classes[name] = n }
            let requests = classes.values.reduce(0, +) + hour.errors
            for (name, n) in classes { totals[name, default: 0] += n }
            errors += hour.errors
            outOfScope += hour.outOfScope
            let alertCount = classes[rules.alertClass] ?? 0
            let top = hour.uas.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(configuration.top).map { Report.TopEntry(ua: $0.key, count: $0.value) }
            hours.append(
                Report.HourEntry(
                    hour: key.iso8601, requests: requests, classes: classes,
                    shares: classes.mapValues { ReportBuilder.share($0, requests) },
                    share: ReportBuilder.share(alertCount, requests),
                    alert: AlertPolicy.alerts(hour),
                    errors: hour.errors, outOfScope: hour.outOfScope, top: Array(top),
                    topApproximate: hour.uasApproximate, closed: hour.closed, late: hour.late))
            if let entry = state.alerts.hours[key.iso8601] {
                hours[hours.count - 1].id = entry.id
                hours[hours.count - 1].alertStatus = entry.status.rawValue
            }
            if hour.incomplete == true { hours[hours.count - 1].incomplete = true }
            inputs.append(
                InsightReport.HourInput(
                    key: key, requests: requests, classes: classes, insight: hour.insight ?? HourInsight()))
        }
        InsightReport.fill(&hours, from: inputs, configuration: configuration)
        for i in hours.indices {
            // A closed hour's drift alert was decided when it closed (and alerted once then).
            if let decided = inputs[i].insight.driftBreached { hours[i].drift?.alert = decided }
            // An open hour alerts for nothing yet (AlertPolicy.alerts).
            if hours[i].closed != true { hours[i].drift?.alert = false }
        }
        let requests = totals.values.reduce(0, +) + errors
        let malformed = state.malformed.values.reduce(0, +)
        let format = configuration.format
        var report = Report(
            generatedAt: generatedAt,
            sources: sources.map {
                Report.SourceEntry(path: $0.path, lines: $0.lines, bytes: $0.bytes, error: $0.error)
            },
            format: Report.FormatEntry(name: format.name, string: format.string, escape: format.escape),
            rules: rules.summary, threshold: configuration.threshold.value, minRequests: configuration.minRequests,
            totals: Report.Totals(
                lines: requests + malformed + outOfScope, requests: requests, malformed: malformed,
                outOfScope: outOfScope,
                errors: errors, classes: totals, share: ReportBuilder.share(totals[rules.alertClass] ?? 0, requests),
                alertHours: hours.filter(\.alert).map(\.hour),
                driftAlertHours: configuration.insight.alertsOnDrift
                    ? hours.filter { $0.drift?.alert == true }.map(\.hour) : nil,
                future: state.totals?.future,
                pendingAlertHours: state.alerts.pending.isEmpty ? nil : state.alerts.pending),
            hours: hours, malformedSamples: state.malformedSamples, gaps: state.gaps, logs: logs)
        // A run report covers the state's hours, not only the bytes this run read: it is
        // known by its content, without generated_at and without what this run happened to
        // read (its sources and which logs it could read), so a run killed and redone gives
        // the report, and the id, of the run that was never killed. Its host and logs are part
        // of it: two quiet hosts' reports are two reports.
        var content = report
        content.sources = []
        content.logs = nil
        report.reportID = ReportIdentity.runID(content: content, host: settings.host, logs: settings.logs)
        return report
    }
}
