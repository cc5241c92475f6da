import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct PrometheusTextTests {
    static let metrics = PrometheusMetrics(
        alertClass: "inconsistent",
        classes: [.init(name: "urlsession", count: 1_000_000_000_000), .init(name: "inconsistent", count: 3)],
        errors: 1, malformed: 2, outOfScope: 0, lastHour: nil, threshold: 0.00001, minRequests: 0, lastSuccess: nil,
        alertsPending: 2)

    @Test func familiesWithoutAValueAreLeftOut() {
        #expect(
            PrometheusText.render(Self.metrics) == """
                # HELP uaaudit_requests_total Requests audited, by User-Agent class.
                # TYPE uaaudit_requests_total counter
                uaaudit_requests_total{class="urlsession"} 1000000000000
                uaaudit_requests_total{class="inconsistent"} 3
                # HELP uaaudit_classification_errors_total Requests whose User-Agent could not be classified (a PCRE2 match or heap limit was hit).
                # TYPE uaaudit_classification_errors_total counter
                uaaudit_classification_errors_total 1
                # HELP uaaudit_malformed_lines_total Log lines that did not match the log format.
                # TYPE uaaudit_malformed_lines_total counter
                uaaudit_malformed_lines_total 2
                # HELP uaaudit_out_of_scope_lines_total Requests outside the rules' path scope, counted but not audited.
                # TYPE uaaudit_out_of_scope_lines_total counter
                uaaudit_out_of_scope_lines_total 0
                # HELP uaaudit_alert_threshold_ratio Alert-class share above which an hour alerts.
                # TYPE uaaudit_alert_threshold_ratio gauge
                uaaudit_alert_threshold_ratio 1e-05
                # HELP uaaudit_alert_min_requests Hours with fewer requests never alert.
                # TYPE uaaudit_alert_min_requests gauge
                uaaudit_alert_min_requests 0
                # HELP uaaudit_alerts_pending Breached hours not yet taken by every channel configured, or waiting for one.
                # TYPE uaaudit_alerts_pending gauge
                uaaudit_alerts_pending 2

                """)
    }

    @Test(
        arguments: [
            (0.001, "0.001"), (1e-05, "1e-05"), (1.0, "1.0"), (0.0, "0.0"), (2.0 / 3.0, "0.6666666666666666"),
            (Double.nan, "NaN"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"),
        ])
    func numbersAreWrittenAsPrometheusParsesThem(value: Double, text: String) {
        #expect(PrometheusText.number(value) == text)
    }

    @Test func labelValuesAndHelpAreEscaped() {
        #expect(PrometheusText.escapeLabel(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
        #expect(PrometheusText.escapeHelp(#"a"b\c"# + "\nd") == #"a"b\\c\nd"#)
    }

    static func hour(_ hour: String, requests: Int64, alert: Bool, closed: Bool?) -> Report.HourEntry {
        Report.HourEntry(
            hour: hour, requests: requests, classes: [:], shares: [:], share: 1.0 / Double(requests), alert: alert,
            errors: 0, outOfScope: 0, top: [], topApproximate: false, closed: closed)
    }

    static func report(_ hours: [Report.HourEntry]) -> Report {
        Report(
            generatedAt: "2026-11-29T10:00:00Z", sources: [],
            format: Report.FormatEntry(name: "ua_log", string: BuiltinFormats.uaLog, escape: .default),
            rules: RuleSet.builtin().summary, threshold: Threshold(parsing: "0.001")!, minRequests: 100,
            totals: Report.Totals(
                lines: 9, requests: 7, malformed: 2, outOfScope: 0, errors: 0,
                classes: ["urlsession": 6, "inconsistent": 1], share: 1.0 / 7.0, alertHours: []),
            hours: hours, malformedSamples: [])
    }

    @Test func aScanDescribesItsNewestHourAndItsOwnCounts() {
        let report = Self.report([
            Self.hour("2026-11-29T17:00:00+08:00", requests: 4, alert: true, closed: nil),
            Self.hour("2026-11-29T18:00:00+08:00", requests: 3, alert: false, closed: nil),
        ])
        let metrics = PrometheusMetrics.scan(report, succeededAt: 1_795_990_000)
        #expect(metrics.classes.map(\.name) == ["webview", "urlsession", "inconsistent", "other", "missing"])
        #expect(metrics.classes.map(\.count) == [0, 6, 1, 0, 0])
        #expect(metrics.malformed == 2)
        #expect(
            metrics.lastHour
                == PrometheusMetrics.LastHour(start: 1_795_946_400, requests: 3, share: 1.0 / 3.0, breached: false))
        #expect(metrics.lastSuccess == 1_795_990_000)
        #expect(metrics.alertsPending == nil)
    }

    @Test func aRunDescribesItsNewestClosedHourAndItsRunningTotals() {
        let report = Self.report([
            Self.hour("2026-11-29T16:00:00+08:00", requests: 5, alert: false, closed: true),
            Self.hour("2026-11-29T17:00:00+08:00", requests: 4, alert: true, closed: true),
            Self.hour("2026-11-29T18:00:00+08:00", requests: 3, alert: false, closed: false),
        ])
        var totals = RunTotals(since: "2026-11-01T00:00:00Z")
        totals.classes = ["urlsession": 600, "inconsistent": 7, "retired": 9]
        totals.malformed = 11
        totals.lastSuccess = 1_795_990_000
        let metrics = PrometheusMetrics.run(report, totals: totals, alertsPending: 1)
        // The current rules' classes, then one the rules no longer have while its lines are
        // counted: the counters still add up to the requests counted.
        #expect(metrics.classes.map(\.count) == [0, 600, 7, 0, 0, 9])
        #expect(metrics.classes.last?.name == "retired")
        #expect(metrics.malformed == 11)
        #expect(metrics.lastHour?.start == 1_795_942_800)
        #expect(metrics.lastHour?.breached == true)
        #expect(metrics.alertsPending == 1)
        #expect(metrics.lastSuccess == 1_795_990_000)
        let open = Self.report([Self.hour("2026-11-29T18:00:00+08:00", requests: 3, alert: false, closed: false)])
        #expect(PrometheusMetrics.run(open, totals: totals, alertsPending: 0).lastHour == nil)
    }

    /// A drift-only hour alerts (AlertPolicy): `breached` keeps its meaning (the share) and
    /// the drift alert has its own gauge, so a dashboard sees the hour as every output does.
    @Test func aDriftAlertOfTheNewestHourHasItsOwnGauge() {
        var drifted = Self.hour("2026-11-29T17:00:00+08:00", requests: 4, alert: false, closed: true)
        drifted.drift = Report.DriftEntry(
            baselineHours: 1, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: ["x"])
        let metrics = PrometheusMetrics.run(
            Self.report([drifted]), totals: RunTotals(since: "2026-11-01T00:00:00Z"), alertsPending: 0)
        #expect(metrics.lastHour?.breached == false)
        #expect(metrics.lastHour?.driftAlert == true)
        let text = PrometheusText.render(metrics)
        #expect(text.contains("\nuaaudit_last_hour_breached 0\n"))
        #expect(text.contains("\nuaaudit_last_hour_drift_alert 1\n"), "\(text)")
    }
}

/// A class the rules lost keeps its counter while its lines are counted: the per-class
/// counters still add up to the requests.
@Suite struct PrometheusCountedClassesTests {
    @Test func theRulesClassesThenTheOthersWithLines() {
        #expect(
            PrometheusMetrics.counted(
                ["urlsession", "inconsistent", "other", "missing"],
                ["legacy": 100, "inconsistent": 2, "gone": 0, "alpha": 1])
                == ["urlsession", "inconsistent", "other", "missing", "alpha", "legacy"])
    }
}
