import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// The alerting policy and the report outputs shared by scan, explain, merge and run; each
/// command may describe them in its own words (``OptionDef/described(_:)``). The config keys
/// are those of run's config.
enum PolicyOptions {
    static let threshold = OptionDef(
        "threshold", value: "X",
        help: [
            "alert when an hour's alert-class share is above X",
            "(0.001 or 0.1%; default \(Threshold.standard); a share above", "0.05 needs its %: 0.1 would mean 10%)",
        ], defaultValue: "\(Threshold.standard)", configKey: "threshold")
    static let minRequests = OptionDef(
        Settings.minRequests, value: "N", help: ["hours with fewer requests never alert"])
    static let top = OptionDef(Settings.top, value: "N", help: ["alert-class UAs listed per hour"])
    static let failOnAlert = OptionDef(
        "fail-on-alert", help: ["exit 1 when an hour is over the threshold (or has", "a drift alert)"])
    static let json = OptionDef("json", help: ["print the JSON report on stdout (no summary)"])
    static let out = OptionDef(
        "out", short: "o", value: "FILE",
        help: [
            "write the JSON report to FILE (atomically); '-' is", "stdout. No output may be an input or another output",
        ],
        configKey: "report", completion: .file)
    static let html = OptionDef(
        "html", value: "FILE", help: ["write the report as one self-contained HTML page"], configKey: "html",
        completion: .file)
    static let prom = OptionDef(
        "prom", value: "FILE",
        help: ["write Prometheus metrics for node_exporter's", "textfile collector (FILE ends in .prom)"],
        configKey: "prom", completion: .file)
    static let quiet = OptionDef("quiet", short: "q", help: ["print no summary and no progress line"])
    static let threads = OptionDef(
        "threads", short: "j", value: "N",
        help: ["threads: inputs side by side, big plain files in", "chunks (default and most: cores)"])
    static let maxLineBytes = OptionDef(Settings.maxLineBytes, value: "N", help: ["longer lines are malformed"])
}
