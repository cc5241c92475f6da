import UAAuditAudit
import UAAuditInput

/// Builds the ``Report`` of an ``AuditResult``: its hours' figures come from ``HourFigures``,
/// the breach decision from ``AlertPolicy``.
enum ReportBuilder {
    static func build(_ result: AuditResult, configuration: ScanConfiguration, generatedAt: String) -> Report {
        let rules = configuration.rules
        let names = rules.classNames
        var hours: [Report.HourEntry] = []
        var inputs: [InsightReport.HourInput] = []
        for key in result.hours.keys.sorted() {
            let counts = HourCounts(result.hours[key]!, configuration: configuration)
            let entry = HourFigures.entry(
                hour: key, counts: counts, classNames: names, alertClass: rules.alertClass, limit: configuration.top
            ) {
                AlertPolicy.breaches(
                    alertCount: $0, requests: $1, threshold: configuration.threshold,
                    minRequests: configuration.minRequests)
            }
            hours.append(entry)
            // Drift reads the classes and the insight: the entry's classes (one copy per hour,
            // not two: a scan may hold 300,000 hours) and no UAs.
            var input = counts
            input.classes = entry.classes
            input.uas = [:]
            inputs.append(InsightReport.HourInput(key: key, counts: input))
        }
        InsightReport.fill(&hours, from: inputs, configuration: configuration)
        let totals = HourFigures.totals(
            of: hours, classNames: names, alertClass: rules.alertClass, malformed: result.malformed,
            driftAlerts: configuration.insight.alertsOnDrift)
        let format = configuration.format
        var report = Report(
            generatedAt: generatedAt,
            sources: result.sources.map {
                Report.SourceEntry(path: $0.path, lines: $0.lines, bytes: $0.bytes, error: $0.error)
            },
            format: Report.FormatEntry(name: format.name, string: format.string, escape: format.escape),
            rules: rules.summary,
            threshold: configuration.threshold,
            minRequests: configuration.minRequests,
            totals: totals,
            hours: hours,
            malformedSamples: result.samples.map {
                Report.SampleEntry(
                    path: $0.path, line: $0.line, text: ReportText.render($0.text), reason: $0.reason.rawValue)
            })
        InsightReport.describe(&report, configuration: configuration)
        return report
    }

    static func share(_ count: Int64, _ requests: Int64) -> Double {
        HourFigures.share(count, requests)
    }
}
