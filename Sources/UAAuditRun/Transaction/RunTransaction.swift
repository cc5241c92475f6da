import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// Carries out a compiled run: lock, state, compute, report, deliver, commit, in that order.
///
/// The state is committed last, so a run killed at any point leaves the previous state and
/// the next run does the same work again; an hour is sent twice only if the process is killed
/// between the receiver's answer and the commit (its id, the same in both messages, lets the
/// receiver drop the copy). A stop request before delivery stops without committing; once
/// delivery has begun, the attempt in flight finishes (bounded by its timeout; a second request
/// aborts it), no retry or backoff wait follows, and the run commits what was delivered, so
/// nothing delivered is sent again.
///
/// Nothing here prints or exits: each step's result reaches the caller as an ``Event`` when it
/// happens, and where the run ended as the ``Outcome``; the CLI words both and picks the exit
/// status. The lock is held until `run` returns.
package struct RunTransaction {
    /// The files a run reads and writes. A `report` of `-` is stdout: not written here, the
    /// caller prints the report.
    package struct Files: Sendable {
        let state: String
        let lock: String
        /// Seconds to wait for another run's lock.
        let lockWait: Double
        let report: String?
        let html: String?
        let prom: String?

        package init(state: String, lock: String, lockWait: Double, report: String?, html: String?, prom: String?) {
            self.state = state
            self.lock = lock
            self.lockWait = lockWait
            self.report = report
            self.html = html
            self.prom = prom
        }
    }

    let settings: RunSettings
    let files: Files
    let channels: [AlertChannel]
    let delivery: DeliveryOptions
    /// What each alert links to (the report, or `uaaudit explain`'s command).
    let links: AlertLinks
    /// Where `url_env` and `secret_env` are looked up.
    let environment: [String: String]
    let transport: any HTTPTransport
    let stop: RunStop
    /// `settings.now` as the report stamps it.
    let generatedAt: String

    package init(
        settings: RunSettings, files: Files, channels: [AlertChannel], delivery: DeliveryOptions, links: AlertLinks,
        environment: [String: String], transport: any HTTPTransport, stop: RunStop, generatedAt: String
    ) {
        self.settings = settings
        self.files = files
        self.channels = channels
        self.delivery = delivery
        self.links = links
        self.environment = environment
        self.transport = transport
        self.stop = stop
        self.generatedAt = generatedAt
    }

    package func run(_ observe: (Event) -> Void = { _ in }) -> Outcome {
        let lock: RunLock
        do {
            lock = try RunLock.acquire(path: files.lock, wait: files.lockWait)
        } catch let busy as RunLock.Busy {
            return .busy(lock: busy.path, waited: busy.waited)
        } catch {
            return .lockUnusable(lock: files.lock, error: error)
        }
        defer { lock.release() }

        let saved: RunState
        do {
            saved = try RunState.load(path: files.state)
        } catch {
            return .stateUnusable(error)
        }
        let outcome = RunEngine.run(
            settings, state: saved, generatedAt: generatedAt, shouldStop: { stop.signal() != nil })
        let computed = Computed(run: outcome, saved: saved, generatedAt: generatedAt)
        observe(.computed(computed))
        CrashPoint.here("after-compute")
        if let signal = stop.signal() { return .stopped(signal: signal) }

        if let path = files.report, path != "-" {
            do {
                try ReportEncoding.write(outcome.report, toFile: path)
            } catch {
                return .reportNotWritten(path: path, error: error)
            }
        }
        // The page is an extra, like the metrics: one that cannot be written is exit 6 at the
        // end, but the run still alerts and commits (else a wrong --html would hold every alert
        // back for good). The report (above) and the state still commit nothing when unwritten.
        let html = files.html.map { OutputWrite.write(Array(HTMLReport.render(outcome.report).utf8), to: $0) }
        observe(.reportWritten(html: html))
        CrashPoint.here("after-report")
        if let signal = stop.signal() { return .stopped(signal: signal) }

        // A log in the wrong format: nothing is committed (and nothing sent), so that once the
        // format is fixed the next run reads those lines again instead of losing them.
        if outcome.sources.contains(where: \.mismatchesFormat) {
            // The committed totals (none yet: from now), and this run's malformed share.
            let metrics = files.prom.map { path in
                let metrics = PrometheusMetrics.run(
                    outcome.report, totals: saved.totals ?? RunTotals(since: generatedAt),
                    alertsPending: saved.alerts.pending.count,
                    latest: .worst(of: outcome.sources))
                return OutputWrite.write(Array(PrometheusText.render(metrics).utf8), to: path)
            }
            return .formatMismatch(computed, metrics: metrics)
        }
        observe(.formatChecked)

        var state = outcome.state
        let pendingBefore = Set(state.alerts.pending)
        // Nothing is sent that cannot be committed: with hours to deliver, the state (its lines
        // counted, those hours pending) is written first, so that a full or read-only state
        // directory fails here, before any message goes out, instead of sending them again on
        // every failing run. The commit after delivery records what the channels took.
        // The room for that commit is taken first (twice the state, and 64 KiB), so that a disk
        // that fills during delivery cannot fail it and have the next run send them again.
        var room: AtomicFile.Reservation? = nil
        if !state.alerts.pending.isEmpty, !channels.isEmpty {
            CrashPoint.here("before-precommit")
            do {
                room = try AtomicFile.Reservation(
                    for: files.state, bytes: 2 * (try state.encoded()).count + 65_536, mode: 0o600)
                try commit(state)
            } catch {
                return .notCommitted(error: error, beforeDelivering: true)
            }
        }
        let delivered = deliver(&state, report: outcome.report, observe: observe)
        let sent = pendingBefore.subtracting(state.alerts.pending).count
        CrashPoint.here("after-deliver")
        observe(.deliveryEnded(sent: sent, pending: state.alerts.pending.count))
        CrashPoint.here("before-commit")
        do {
            try commit(state, into: room)
        } catch {
            return .notCommitted(error: error, beforeDelivering: false)
        }
        CrashPoint.here("after-commit")
        // Stopped during delivery: what was delivered is committed (above); the rest waits.
        let signal = stop.signal()
        // Metrics describe the committed state: its totals only grow, and a run that died
        // before its commit never showed counts that the next run would count again.
        var metrics: OutputWrite? = nil
        if let path = files.prom, let totals = state.totals {
            var figures = PrometheusMetrics.run(
                outcome.report, totals: totals, alertsPending: state.alerts.pending.count,
                latest: .worst(of: outcome.sources))
            figures.clockHeld = outcome.clockHold != nil
            metrics = OutputWrite.write(Array(PrometheusText.render(figures).utf8), to: path)
        }
        return .committed(
            Committed(
                computed: computed, html: html, delivery: delivered, metrics: metrics,
                alerting: Self.alertedNow(outcome),
                stopSignal: signal))
    }
}
