import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// The report `uaaudit run` writes: the scan report's schema over the state's hours, each hour
/// with `closed` and `late`, plus the gaps.
enum RunReport {
    /// The state's hours as drift inputs, by instant.
    static func insightInputs(state: RunState) -> [InsightReport.HourInput] {
        state.hours.compactMap { iso, hour -> InsightReport.HourInput? in
            HourKey(iso8601: iso).map { InsightReport.HourInput(key: $0, counts: hour.counts) }
        }.sorted { $0.key < $1.key }
    }

    static func build(
        state: RunState, sources: [AuditResult.Source], settings: RunSettings, generatedAt: String,
        logs: [Report.LogEntry]? = nil
    ) -> Report {
        let configuration = settings.scan
        let rules = configuration.rules
        let names = rules.classNames
        var hours: [Report.HourEntry] = []
        var inputs: [InsightReport.HourInput] = []
        let keyed = state.hours.compactMap { iso, hour in HourKey(iso8601: iso).map { ($0, hour) } }
        for (key, hour) in keyed.sorted(by: { $0.0 < $1.0 }) {
            var entry = HourFigures.entry(
                hour: key, counts: hour.counts, classNames: names, alertClass: rules.alertClass,
                limit: configuration.top
            ) { _, _ in AlertPolicy.alerts(hour) }
            entry.closed = hour.closed
            entry.late = hour.late
            if let alert = state.alerts.hours[key.iso8601] {
                entry.id = alert.id
                entry.alertStatus = alert.status.rawValue
            }
            if hour.incomplete == true { entry.incomplete = true }
            if hour.backfill == true { entry.backfill = true }
            hours.append(entry)
            inputs.append(InsightReport.HourInput(key: key, counts: hour.counts))
        }
        InsightReport.fill(&hours, from: inputs, configuration: configuration)
        for i in hours.indices {
            // A closed hour's drift alert was decided when it closed (and alerted once then).
            if let decided = inputs[i].insight.driftBreached { hours[i].drift?.alert = decided }
            // An open hour alerts for nothing yet (AlertPolicy.alerts).
            if hours[i].closed != true { hours[i].drift?.alert = false }
        }
        let format = configuration.format
        var totals = HourFigures.totals(
            of: hours, classNames: names, alertClass: rules.alertClass,
            malformed: state.malformed.values.reduce(0, +), driftAlerts: configuration.insight.alertsOnDrift)
        totals.future = state.totals?.future
        totals.pendingAlertHours = state.alerts.pending.isEmpty ? nil : state.alerts.pending
        var report = Report(
            generatedAt: generatedAt,
            sources: sources.map {
                Report.SourceEntry(path: $0.path, lines: $0.lines, bytes: $0.bytes, error: $0.error)
            },
            format: Report.FormatEntry(name: format.name, string: format.string, escape: format.escape),
            rules: rules.summary, threshold: configuration.threshold, minRequests: configuration.minRequests,
            totals: totals,
            hours: hours, malformedSamples: state.malformedSamples, gaps: state.gaps, logs: logs)
        InsightReport.describe(&report, configuration: configuration)
        // A run report covers the state's hours, not only the bytes this run read: it is
        // known by its content, without generated_at and without what this run happened to
        // read (its sources and which logs it could read), so a run killed and redone gives
        // the report, and the id, of the run that was never killed. Its host and logs are part
        // of it: two quiet hosts' reports are two reports.
        var content = report
        content.sources = []
        content.logs = nil
        report.reportID = ReportIdentity.runID(content: content, host: settings.host, logs: settings.logs)
        report.runOf = ReportIdentity.runOf(host: settings.host, logs: settings.logs)
        return report
    }
}
