import UAAuditRun

/// The one line `run --heartbeat` writes per run, so that a silent cron job is visible in its log.
struct Heartbeat {
    var lines: Int64 = 0
    var malformed: Int64 = 0
    var hoursClosed = 0
    /// Breached hours delivered by this run, and those still pending after it.
    var alertsSent = 0
    var alertsPending = 0
    var gaps = 0
    /// Set when the run used the built-in example rules on another app's traffic: the app
    /// found there, or "" when none was.
    var exampleRules: String?
    /// The run did not believe its clock (``RunEngine/ClockHold``): nothing was decided.
    var clockHeld = false

    /// Takes the counts of a computed run (`saved` is the state before it).
    mutating func read(_ outcome: RunEngine.RunOutcome, saved: RunState, generatedAt: String) {
        lines = outcome.sources.reduce(0) { $0 + $1.lines }
        malformed = outcome.sources.reduce(0) { $0 + $1.malformed }
        hoursClosed = outcome.closedNow.count
        gaps = outcome.state.gaps.filter { $0.detectedAt == generatedAt }.count
        alertsPending = outcome.state.alerts.pending.count
        clockHeld = outcome.clockHold != nil
    }

    func line(status: ExitCode) -> String { line(status: status.rawValue) }

    /// With a raw status: 143 or 130 for a run a signal stopped.
    func line(status: Int32) -> String {
        var line =
            "run: lines \(lines), malformed \(malformed), hours closed \(hoursClosed), alerts sent \(alertsSent), "
            + "alerts pending \(alertsPending), gaps \(gaps), exit \(status)"
        if clockHeld { line += ", clock held (no hour decided)" }
        if let app = exampleRules {
            line += ", rules: built-in examples for MyApp"
            line += app.isEmpty ? " (write yours: uaaudit rules init)" : " (unaudited app in the log: \(app))"
        }
        return line
    }
}
