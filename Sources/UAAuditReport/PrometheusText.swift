/// Writes ``PrometheusMetrics`` in the Prometheus text exposition format (0.0.4), the one
/// node_exporter's textfile collector reads: `# HELP` and `# TYPE` before each family, no
/// sample timestamps, and only low-cardinality labels (a class name; never a UA).
///
/// A family with no value (no closed hour yet, no successful run) is left out rather than
/// written as a made-up 0.
package enum PrometheusText {
    package static func render(_ metrics: PrometheusMetrics) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            guard !samples.isEmpty else { return }
            out += "# HELP \(name) \(escapeHelp(help))\n# TYPE \(name) \(type)\n"
            for sample in samples { out += "\(name)\(sample.labels) \(sample.value)\n" }
        }
        func one(_ value: String) -> [(labels: String, value: String)] { [("", value)] }
        let alertLabel = "{class=\"\(escapeLabel(metrics.alertClass))\"}"

        family(
            "uaaudit_requests_total", "counter", "Requests audited, by User-Agent class.",
            metrics.classes.map { ("{class=\"\(escapeLabel($0.name))\"}", String($0.count)) })
        family(
            "uaaudit_classification_errors_total", "counter",
            "Requests whose User-Agent could not be classified (a PCRE2 match or heap limit was hit).",
            one(String(metrics.errors)))
        family(
            "uaaudit_malformed_lines_total", "counter", "Log lines that did not match the log format.",
            one(String(metrics.malformed)))
        family(
            "uaaudit_out_of_scope_lines_total", "counter",
            "Requests outside the rules' path scope, counted but not audited.", one(String(metrics.outOfScope)))
        if let latest = metrics.latest {
            family(
                "uaaudit_latest_lines", "gauge",
                "Log lines the latest scan or run read from its worst input (largest malformed share).",
                one(String(latest.lines)))
            family(
                "uaaudit_latest_malformed_ratio", "gauge",
                "Share of the lines of the latest scan's or run's worst input that did not match the log format.",
                one(number(latest.malformedRatio)))
        }
        if let hour = metrics.lastHour {
            family(
                "uaaudit_last_hour_start_timestamp_seconds", "gauge", "Start of the newest closed hour.",
                one(String(hour.start)))
            family(
                "uaaudit_last_hour_requests", "gauge", "Requests audited in the newest closed hour.",
                one(String(hour.requests)))
            family(
                "uaaudit_last_hour_alert_class_ratio", "gauge",
                "The alert class's share of the requests in the newest closed hour.",
                [(alertLabel, number(hour.share))])
            family(
                "uaaudit_last_hour_breached", "gauge",
                "1 when the newest closed hour's alert-class share was above the threshold with at least the minimum requests.",
                one(hour.breached ? "1" : "0"))
            family(
                "uaaudit_last_hour_drift_alert", "gauge",
                "1 when a User-Agent drift alert fired for the newest closed hour (it alerts when this or breached is 1).",
                one(hour.driftAlert ? "1" : "0"))
        }
        family(
            "uaaudit_alert_threshold_ratio", "gauge", "Alert-class share above which an hour alerts.",
            one(number(metrics.threshold)))
        family(
            "uaaudit_alert_min_requests", "gauge", "Hours with fewer requests never alert.",
            one(String(metrics.minRequests)))
        if let pending = metrics.alertsPending {
            family(
                "uaaudit_alerts_pending", "gauge",
                "Breached hours not yet taken by every channel configured, or waiting for one.",
                one(String(pending)))
        }
        if let expired = metrics.alertsExpired {
            family(
                "uaaudit_alerts_expired_total", "counter",
                "Breached hours dropped unsent: still pending twice history_hours after they ended.",
                one(String(expired)))
        }
        if let held = metrics.clockHeld {
            family(
                "uaaudit_clock_held", "gauge",
                "1 when the last run did not believe its clock (behind the run before, or far ahead of the lines).",
                one(held ? "1" : "0"))
        }
        if let logs = metrics.logs {
            family(
                "uaaudit_log_readable", "gauge",
                "1 when the last run could read the configured log, 0 when it is missing, a directory, a FIFO, gzip or unreadable (then it was not advanced).",
                logs.map { ("{log=\"\(escapeLabel($0.path))\"}", $0.readable ? "1" : "0") })
        }
        if let success = metrics.lastSuccess {
            family(
                "uaaudit_last_success_timestamp_seconds", "gauge", "When the last run that read every input finished.",
                one(String(success)))
        }
        return out
    }

    /// A float as Prometheus parses it (Go's ParseFloat): shortest round-trip digits, `NaN`, `+Inf`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        return "\(value)"
    }

    /// Label values escape backslash, double quote and newline.
    static func escapeLabel(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// HELP text escapes backslash and newline.
    static func escapeHelp(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
