import FoundationEssentials
import Glibc
import UAAuditCurl
import UAAuditInput
import UAAuditReport
import UAAuditRun
import UAAuditAudit

/// Carries out a compiled run: lock, state, compute, report, deliver, commit, in that order.
///
/// The state is committed last, so a run killed at any point leaves the previous state and
/// the next run does the same work again; an hour is sent twice only if the process is killed
/// between the receiver's answer and the commit (its id, the same in both messages, lets the
/// receiver drop the copy). SIGTERM or SIGINT before delivery stops without committing; once
/// delivery has begun, the attempt in flight finishes (bounded by its timeout; a second signal
/// aborts it), no retry or backoff wait follows, and the run commits what was delivered, so
/// nothing delivered is sent again.
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
        let lock: RunLock
        do {
            lock = try RunLock.acquire(path: job.lockPath, wait: job.lockWait)
        } catch let error as RunLock.Busy {
            console.error(error.description)
            return .locked
        } catch {
            console.error("cannot open lock file \(job.lockPath): \(error); nothing was touched")
            return .output
        }
        defer { lock.release() }

        let saved: RunState
        do {
            saved = try RunState.load(path: job.statePath)
        } catch {
            console.error(error.description)
            return .usage
        }
        let generatedAt = Timestamps.iso8601UTC(seconds: job.settings.now)
        let outcome = RunEngine.run(
            job.settings, state: saved, generatedAt: generatedAt, shouldStop: { stop.caught != nil })
        summary.read(outcome, saved: saved, generatedAt: generatedAt)
        CrashPoint.here("after-compute")
        if let signal = stop.caught { stopped(signal, summary) }

        if let path = job.reportPath, path != "-",
            let failed = ReportOutput.write(
                outcome.report, to: path, console: console, untouched: "state not committed, nothing lost")
        {
            return failed
        }
        // The page is an extra, like the metrics: one that cannot be written is exit 6 at the
        // end, but the run still alerts and commits (else a wrong --html would hold every alert
        // back for good). The report (above) and the state still commit nothing when unwritten.
        var htmlWritten = true
        if let path = job.htmlPath {
            let html = Array(HTMLReport.render(outcome.report).utf8)
            htmlWritten = OutputFile.write(html, to: path, what: "HTML report", console: console)
        }
        CrashPoint.here("after-report")
        if let signal = stop.caught { stopped(signal, summary) }

        // A log in the wrong format: nothing is committed (and nothing sent), so that once the
        // format is fixed the next run reads those lines again instead of losing them.
        let hints = MismatchHint.messages(
            sources: outcome.sources, samples: outcome.samples, format: job.settings.scan.format,
            nginxConf: job.nginxConf, inConfig: job.formatFromConfig)
        if !hints.isEmpty {
            if let path = job.promPath {
                // The committed totals (none yet: from now), and this run's malformed share.
                let metrics = PrometheusMetrics.run(
                    outcome.report, totals: saved.totals ?? RunTotals(since: generatedAt),
                    alertsPending: saved.alerts.pending.count,
                    latest: .worst(of: outcome.sources))
                _ = OutputFile.write(
                    Array(PrometheusText.render(metrics).utf8), to: path, what: "metrics", console: console)
            }
            for hint in hints { console.error(hint) }
            console.error(
                "state not committed: these lines are read again by the first run after the format is fixed")
            return .formatMismatch
        }

        // A log too short for exit 8 that another format parses: told, and counted as it is.
        for hint in MismatchHint.shortInputHints(
            sources: outcome.sources, samples: outcome.samples, format: job.settings.scan.format,
            nginxConf: job.nginxConf, inConfig: job.formatFromConfig)
        {
            console.error(hint)
        }
        if outcome.future > 0 {
            let hours = job.settings.futureHorizonSeconds / 3600
            let placed =
                outcome.futureUnplaced == 0
                ? "wait in the state, and count in their hours when the clock reaches them"
                : "wait in the state, and count in their hours when the clock reaches them, but for "
                    + "\(outcome.futureUnplaced) in no hour (more than \(RunEngine.FutureLines.maxWaitingHours) hours wait)"
            console.error(
                "\(outcome.future) line\(outcome.future == 1 ? "" : "s") stamped more than \(hours) h after the run's clock "
                    + "(\(Timestamps.iso8601UTC(seconds: job.settings.now))) counted in totals.future; they \(placed): "
                    + "check the clock of the host that writes the log, and --now")
        }
        if outcome.released > 0 {
            console.error(
                "\(outcome.released) line\(outcome.released == 1 ? "" : "s") stamped ahead of an earlier run's clock, "
                    + "kept in the state, now counted in \(outcome.released == 1 ? "its hour" : "their hours")")
        }
        var state = outcome.state
        let pendingBefore = Set(state.alerts.pending)
        // Nothing is sent that cannot be committed: with hours to deliver, the state (its lines
        // counted, those hours pending) is written first, so that a full or read-only state
        // directory fails here, before any message goes out, instead of sending them again on
        // every failing run. The commit after delivery records what the channels took.
        // The room for that commit is taken first (twice the state, and 64 KiB), so that a disk
        // that fills during delivery cannot fail it and have the next run send them again.
        var room: AtomicFile.Reservation? = nil
        if !state.alerts.pending.isEmpty, !job.channels.isEmpty {
            CrashPoint.here("before-precommit")
            do {
                room = try AtomicFile.Reservation(
                    for: job.statePath, bytes: 2 * (try state.encoded()).count + 65_536, mode: 0o600)
            } catch {
                console.error(commitFailure(error, beforeDelivering: true))
                return .output
            }
            if let failed = commit(state, before: "delivering") { return failed }
        }
        let delivery = deliver(&state, report: outcome.report, stop: stop)
        summary.alertsSent = pendingBefore.subtracting(state.alerts.pending).count
        summary.alertsPending = state.alerts.pending.count
        CrashPoint.here("after-deliver")
        if !quiet, job.settings.alertMode == .unconfigured, !state.alerts.pending.isEmpty {
            console.error(AlertLedger.unconfiguredNotice(pending: state.alerts.pending.count))
        }
        // One line for any number: a long gap between runs can drop a hundred hours at once.
        if let first = outcome.expiredAlerts.first, let last = outcome.expiredAlerts.last {
            let what =
                outcome.expiredAlerts.count == 1
                ? "the breached hour \(first) ended and was decided"
                : "\(outcome.expiredAlerts.count) breached hours (\(first) to \(last)) ended and were decided"
            let why =
                job.channels.isEmpty
                ? "no alert channel is configured (--webhook, or \"alerts\" in the config; \"alerts\": [] "
                    + "for metrics only)"
                : "the channels did not take \(outcome.expiredAlerts.count == 1 ? "it" : "them") in that time "
                    + "(uaaudit alert test checks them), or no run came to send \(outcome.expiredAlerts.count == 1 ? "it" : "them") "
                    + "(run uaaudit run at least every history_hours, or raise history_hours)"
            console.error(
                "\(what) at least 2 × history_hours before the run's clock and \(outcome.expiredAlerts.count == 1 ? "is" : "are") dropped unsent: "
                    + why)
        }
        if let hold = outcome.clockHold { console.error(RunExecution.clockNotice(hold, now: job.settings.now)) }
        if let first = outcome.rekeyedHours.first, let last = outcome.rekeyedHours.last {
            console.error(
                "the client salt is not the one the state's hours were counted with: the split-client figures "
                    + "of \(outcome.rekeyedHours.count == 1 ? "hour \(first)" : "the \(outcome.rekeyedHours.count) hours \(first) to \(last)") "
                    + "keep their counts but cannot be matched with later clients or merged across hosts "
                    + "(a client seen again counts again)")
        }
        if let first = outcome.unalertedBackfill.first, let last = outcome.unalertedBackfill.last {
            console.error(
                RunExecution.backfillNotice(
                    count: outcome.unalertedBackfill.count, first: first, last: last,
                    historyHours: job.settings.historyHours))
        }
        CrashPoint.here("before-commit")
        if let failed = commit(state, before: nil, into: room) { return failed }
        CrashPoint.here("after-commit")
        // Stopped during delivery: what was delivered is committed (above); the rest waits.
        let signal = stop.caught
        // Metrics describe the committed state: its totals only grow, and a run that died
        // before its commit never showed counts that the next run would count again.
        var metricsWritten = true
        if let path = job.promPath, let totals = state.totals {
            var metrics = PrometheusMetrics.run(
                outcome.report, totals: totals, alertsPending: state.alerts.pending.count,
                latest: .worst(of: outcome.sources))
            metrics.clockHeld = outcome.clockHold != nil
            let text = Array(PrometheusText.render(metrics).utf8)
            metricsWritten = OutputFile.write(text, to: path, what: "metrics", console: console)
        }

        if let signal {
            console.error(
                "stopped by signal \(signal) during delivery; what was delivered is committed, the other hours stay pending"
            )
            exitStopped(signal, summary)
        }
        for error in outcome.errors { console.error("\(error); that log was not advanced and will be read again") }
        for gap in outcome.report.gaps ?? [] where gap.detectedAt == generatedAt {
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
        if !metricsWritten || !htmlWritten { return .output }
        // A breached hour dropped unsent while a channel is configured is an alert lost: exit 4,
        // as one not delivered. (With no channel at all, the notice above has said all along
        // that breached hours wait for one.)
        if delivery.undelivered || (!outcome.expiredAlerts.isEmpty && !job.channels.isEmpty) { return .delivery }
        if !outcome.errors.isEmpty { return .input }
        return failOnAlert && !RunExecution.alertedNow(outcome, saved: saved).isEmpty ? .alert : .success
    }

    /// Writes the state atomically (its directory fsynced); nil when done, else the status
    /// after saying why. `before` names what was held back for it ("delivering").
    private func commit(_ state: RunState, before: String?, into room: AtomicFile.Reservation? = nil) -> ExitCode? {
        do {
            let bytes = try state.encoded()
            if let room {
                try room.write(bytes)
            } else {
                try AtomicFile.write(bytes, to: job.statePath, mode: 0o600)
            }
            return nil
        } catch {
            console.error(commitFailure(error, beforeDelivering: before != nil))
            return .output
        }
    }

    private func commitFailure(_ error: any Error, beforeDelivering: Bool) -> String {
        let held =
            beforeDelivering
            ? "; nothing was sent (the alerts stay pending), so that no message goes out that the state cannot record"
            : ""
        return "cannot commit state \(job.statePath): \(error)\(held); the previous state is untouched"
    }

    /// Why a run did not believe its clock, and what it did instead.
    static func clockNotice(_ hold: RunEngine.ClockHold, now: Int64) -> String {
        let clock = Timestamps.iso8601UTC(seconds: now)
        let what: String
        switch hold {
        case .behind(let seconds, let last):
            what =
                "the clock (\(clock)) is \(duration(seconds)) behind the last run's "
                + "(\(Timestamps.iso8601UTC(seconds: last))) and no line read vouches for it"
        case .ahead(let seconds, let reference):
            what =
                "the clock (\(clock)) is \(duration(seconds)) ahead of both the last run's and the newest "
                + "line seen (\(Timestamps.iso8601UTC(seconds: reference)))"
        }
        return what + ": this run counted what it read into its hours but closed, pruned and alerted nothing on "
            + "that clock (uaaudit_clock_held 1). Check the host's clock (NTP, the VM's) and --now: the next "
            + "run whose clock is sane, or that reads a line from its last hour, decides; if this clock is "
            + "right (the last run's was wrong, or the log was quiet), run once with --trust-clock"
    }

    /// A duration in the largest unit that keeps it readable: seconds, minutes, hours and
    /// minutes, or days and hours.
    static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 86_400 {
            let minutes = seconds % 3600 / 60
            return minutes == 0 ? "\(seconds / 3600) h" : "\(seconds / 3600) h \(minutes) min"
        }
        let hours = seconds % 86_400 / 3600
        return hours == 0 ? "\(seconds / 86_400) d" : "\(seconds / 86_400) d \(hours) h"
    }

    /// Why breached backfill hours were reported and not alerted, in one line for any number.
    static func backfillNotice(count: Int, first: String, last: String, historyHours: Int64) -> String {
        let what = count == 1 ? "the breached hour \(first) was" : "\(count) breached hours (\(first) to \(last)) were"
        return "\(what) already history_hours (\(historyHours) h) old when first read: "
            + "reported with \"backfill\": true and not alerted; "
            + "raise history_hours to alert on older hours"
    }

    /// The hours this run closed that alert, by the report's own decision (`alerted`: over
    /// the threshold, or a drift alert): an hour closed by an earlier run has had its exit 1.
    static func alertedNow(_ outcome: RunEngine.RunOutcome, saved: RunState) -> [String] {
        let closedNow = Set(outcome.closedNow.compactMap { HourKey(iso8601: $0) })
        // A backfill hour is never alerted, so it never makes exit 1 either.
        return outcome.report.hours.filter { entry in
            entry.alerted && entry.backfill != true
                && HourKey(iso8601: entry.hour).map { closedNow.contains($0) } == true
        }.map(\.hour)
    }

    /// Sends the pending hours to the channels configured now (``LedgerDelivery``) and says
    /// what became of each message.
    private func deliver(_ state: inout RunState, report: Report, stop: StopSignals) -> LedgerDelivery.Outcome {
        let dispatcher = AlertDispatcher(
            options: job.delivery, environment: environment, transport: CurlTransport(), stop: stop.delivery)
        let outcome = LedgerDelivery.deliver(
            &state.alerts, report: report, host: job.settings.host, channels: job.channels,
            mode: job.settings.alertMode, dispatcher: dispatcher, at: report.generatedAt, links: ExplainLinks.run(job),
            shouldStop: { stop.caught != nil },
            afterEach: { attempt in
                let what = "hours \(attempt.hours.joined(separator: ", "))"
                if attempt.result.delivered {
                    if !quiet { console.note("\(what): \(attempt.result)") }
                } else {
                    console.error("\(what): \(attempt.result); kept for the next run")
                }
                CrashPoint.here("after-channel")
            })
        return outcome
    }

    private func stopped(_ signal: Int32, _ summary: Heartbeat) -> Never {
        console.error("stopped by signal \(signal) before committing; the next run redoes this one")
        exitStopped(signal, summary)
    }

    /// Exits 128 + `signal` (the status a shell shows for a process the signal ended), after
    /// the heartbeat line: a supervisor watching it sees the stopped runs too.
    private func exitStopped(_ signal: Int32, _ summary: Heartbeat) -> Never {
        if heartbeat { console.note(summary.line(status: 128 + signal)) }
        exit(128 + signal)
    }
}
