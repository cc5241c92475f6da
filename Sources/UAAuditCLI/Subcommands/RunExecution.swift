import Glibc
import UAAuditAudit
import UAAuditCurl
import UAAuditInput
import UAAuditReport
import UAAuditRun

/// Carries out a compiled run through the core's ``RunTransaction`` (lock, state, compute,
/// report, deliver, commit, metrics), and words what it says: each step's messages on stderr
/// as the step ends, the report or summary on stdout, the heartbeat line, the exit status.
///
/// SIGTERM or SIGINT (``StopSignals``) before delivery stops without committing; once delivery
/// has begun, the attempt in flight finishes (a second signal aborts it) and the run commits
/// what was delivered. Either way it exits 128 + the signal.
struct RunExecution {
    let job: RunJob
    let console: Console
    let printJSON: Bool
    let quiet: Bool
    var heartbeat = false
    /// Exit 1 when an hour this run closed alerts (and nothing outranks it).
    var failOnAlert = false
    let environment: [String: String]

    func run() -> ExitCode {
        var summary = Heartbeat()
        let status = run(&summary)
        if heartbeat { console.note(summary.line(status: status)) }
        return status
    }

    private func run(_ summary: inout Heartbeat) -> ExitCode {
        let stop = StopSignals()
        let transaction = RunTransaction(
            settings: job.settings,
            files: .init(
                state: job.statePath, lock: job.lockPath, lockWait: job.lockWait, report: job.reportPath,
                html: job.htmlPath, prom: job.promPath),
            channels: job.channels, delivery: job.delivery, links: ExplainLinks.run(job), environment: environment,
            transport: CurlTransport(), stop: stop.run, generatedAt: Timestamps.iso8601UTC(seconds: job.settings.now))
        var computed: RunTransaction.Computed? = nil
        let outcome = transaction.run { event in
            switch event {
            case .computed(let run):
                computed = run
                summary.read(run.run, saved: run.saved, generatedAt: run.generatedAt)
            case .reportWritten(let html):
                if let html, let path = job.htmlPath {
                    _ = OutputFile.show(html, path: path, what: "HTML report", console: console)
                }
            case .formatChecked:
                if let computed { beforeDelivery(computed.run) }
            case .attempt(let attempt):
                let what = "hours \(attempt.hours.joined(separator: ", "))"
                if attempt.result.delivered {
                    if !quiet { console.note("\(what): \(attempt.result)") }
                } else {
                    console.error("\(what): \(attempt.result); kept for the next run")
                }
            case .deliveryEnded(let sent, let pending):
                summary.alertsSent = sent
                summary.alertsPending = pending
                if let computed { afterDelivery(computed.run, pending: pending) }
            }
        }
        switch outcome {
        case .busy(let lock, let waited):
            console.error(
                "another uaaudit run holds \(lock) (waited \(waited) s); nothing was touched. "
                    + "If no run is active, check that the lock file is on a local filesystem")
            return .locked
        case .lockUnusable(let lock, let error):
            console.error("cannot open lock file \(lock): \(error); nothing was touched")
            return .output
        case .stateUnusable(let error):
            console.error(error.description)
            return .usage
        case .stopped(let signal):
            console.error("stopped by signal \(signal) before committing; the next run redoes this one")
            exitStopped(signal, summary)
        case .reportNotWritten(let path, let error):
            return ReportOutput.failed(
                error, path: path, console: console, untouched: "state not committed, nothing lost")
        case .formatMismatch(let computed, let metrics):
            if let metrics, let path = job.promPath {
                _ = OutputFile.show(metrics, path: path, what: "metrics", console: console)
            }
            for hint in MismatchHint.messages(
                sources: computed.run.sources, samples: computed.run.samples, format: job.settings.scan.format,
                nginxConf: job.nginxConf, inConfig: job.formatFromConfig)
            {
                console.error(hint)
            }
            console.error(
                "state not committed: these lines are read again by the first run after the format is fixed")
            return .formatMismatch
        case .notCommitted(let error, let beforeDelivering):
            console.error(commitFailure(error, beforeDelivering: beforeDelivering))
            return .output
        case .committed(let committed):
            return finish(committed, &summary)
        }
    }

    /// After the commit: the metrics' write, then what the run leaves to say, the report or
    /// summary on stdout, and the status.
    private func finish(_ committed: RunTransaction.Committed, _ summary: inout Heartbeat) -> ExitCode {
        let outcome = committed.computed.run
        var metricsWritten = true
        if let metrics = committed.metrics, let path = job.promPath {
            metricsWritten = OutputFile.show(metrics, path: path, what: "metrics", console: console)
        }
        if let signal = committed.stopSignal {
            console.error(
                "stopped by signal \(signal) during delivery; what was delivered is committed, the other hours stay pending"
            )
            exitStopped(signal, summary)
        }
        for error in outcome.errors { console.error("\(error); that log was not advanced and will be read again") }
        for gap in outcome.report.gaps ?? [] where gap.detectedAt == committed.computed.generatedAt {
            console.error(
                "\(gap.log): bytes from \(gap.fromOffset) of \(gap.file) could not be read: \(gap.reason)")
        }
        // Built-in example rules on another app's traffic: said on every run, -q or not.
        if let notice = ExampleRulesNotice.notice(outcome.report, rulesOut: "rules.json") {
            console.err(raw: ExampleRulesOutput.text(notice))
            summary.exampleRules = notice.app ?? ""
        }
        // `--out -` is stdout: the report is printed as with --json.
        if printJSON || job.reportPath == "-" {
            if let failed = ReportOutput.print(outcome.report, console: console) { return failed }
        } else if !quiet, job.htmlPath != "-", job.promPath != "-",
            outcome.errors.isEmpty || !outcome.report.hours.isEmpty
        {
            // Logs that could not be read and nothing counted yet: the errors say all there is.
            console.out(Summary.render(outcome.report, width: 80))
        }
        // When several apply, the highest status wins.
        if !metricsWritten { return .output }
        if case .failed = committed.html { return .output }
        // A breached hour dropped unsent while a channel is configured is an alert lost: exit 4,
        // as one not delivered. (With no channel at all, the notice after delivery has said all
        // along that breached hours wait for one.)
        if committed.delivery.undelivered || (!outcome.expiredAlerts.isEmpty && !job.channels.isEmpty) {
            return .delivery
        }
        if !outcome.errors.isEmpty { return .input }
        return failOnAlert && !committed.alerting.isEmpty ? .alert : .success
    }

    private func commitFailure(_ error: any Error, beforeDelivering: Bool) -> String {
        let held =
            beforeDelivering
            ? "; nothing was sent (the alerts stay pending), so that no message goes out that the state cannot record"
            : ""
        return "cannot commit state \(job.statePath): \(error)\(held); the previous state is untouched"
    }

    /// Exits 128 + `signal` (the status a shell shows for a process the signal ended), after
    /// the heartbeat line: a supervisor watching it sees the stopped runs too.
    private func exitStopped(_ signal: Int32, _ summary: Heartbeat) -> Never {
        if heartbeat { console.note(summary.line(status: 128 + signal)) }
        exit(128 + signal)
    }
}
