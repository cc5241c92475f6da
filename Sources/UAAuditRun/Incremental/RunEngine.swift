import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// One incremental run, computed entirely in memory from the saved state and the logs.
///
/// Nothing is written here: the caller writes the report, delivers ``RunOutcome/newAlerts``
/// and the pending ones, then commits ``RunOutcome/state``. A run that dies before the commit
/// leaves the old state, and the next run reads the same bytes again: nothing is counted twice.
package enum RunEngine {
    package struct RunOutcome: Sendable {
        package var state: RunState
        package var report: Report
        /// Hours this run closed breached (recorded in `state.alerts`), in time order.
        var newAlerts: [String]
        /// Pending hours dropped unsent because they outlived ``AlertLedger/pendingLifetime(historyHours:)``.
        package var expiredAlerts: [String] = []
        /// Inputs that failed; their logs were not advanced and will be read again next run.
        package var errors: [String]
        /// Each configured log, and whether it could be read (the metrics' `uaaudit_log_readable`).
        var logs: [Report.LogEntry]
        /// What this run read of each file, with its malformed lines (for the format-mismatch check).
        package var sources: [AuditResult.Source] = []
        /// Lines this run read that were stamped beyond ``RunSettings/futureHorizonSeconds``.
        package var future: Int64 = 0
        /// Of those, the lines in no hour: beyond ``FutureLines/maxWaitingHours`` waiting hours.
        package var futureUnplaced: Int64 = 0
        /// Lines that waited in the state (stamped ahead) and this run counted into their hours.
        package var released: Int64 = 0
        /// This run's malformed samples, whole (up to ``Tally/sampleTextBytes``), for the hint.
        package var samples: [AuditResult.Sample] = []
        /// Backfill hours this run closed that breached (share or drift), in time order: in the
        /// report, never alerted (``RunEngine/isBackfill(_:now:historyHours:)``).
        package var unalertedBackfill: [String] = []
        /// The hours this run closed, in time order (backfill hours and hours pruned since included).
        package var closedNow: [String] = []
        /// Why this run did not believe its clock (nothing closed, pruned or paged on it).
        package var clockHold: ClockHold? = nil
        /// The hours whose client sets were keyed with another client salt (``rekeyClients(_:salt:)``).
        package var rekeyedHours: [String] = []
        /// Non-nil when the rules are not the ones the state's hours were counted with
        /// (``noteRules(_:rules:)``): the classes its hours counted that these rules lack, with
        /// their lines (they stay counted under their names, in the requests and the report).
        package var retiredClasses: [String: Int64]? = nil
    }

    /// The most alert-class UAs each hour keeps in the state.
    static let uasPerHour = 200

    /// `shouldStop` says that the run is being stopped (SIGTERM): a log that is not there is then
    /// not waited for.
    static func run(
        _ settings: RunSettings, state saved: RunState, generatedAt: String,
        shouldStop: @escaping () -> Bool = { false }
    ) -> RunOutcome {
        var state = saved
        var configuration = settings.scan
        let rekeyed = rekeyClients(&state, salt: configuration.insight.salt)
        let retired = noteRules(&state, rules: configuration.rules)
        hideClientKeys(&state, insight: configuration.insight)
        // A clock behind the last run's would put every line in the future: lines are placed
        // against the later of the two.
        configuration.futureAfter =
            max(settings.now, saved.lastRunClock ?? settings.now) + settings.futureHorizonSeconds
        let worker = Worker(configuration: configuration, progress: nil)
        var result = AuditResult(classCount: configuration.rules.classCount, sampleLimit: configuration.sampleLimit)
        var errors: [String] = []
        var logs: [Report.LogEntry] = []
        var failed: [String] = []
        var wait = AbsentWait(budget: absentWaitMilliseconds, shouldStop: shouldStop)
        for log in settings.logs {
            let key = state.logKey(for: log)
            switch read(
                log, saved: state.logs[key], worker: worker, configuration: configuration, at: generatedAt,
                rotatedDirectory: settings.rotatedDirectory, wait: &wait)
            {
            case .read(let logResult, let plan):
                merge(logResult, into: &result)
                state.logs[key] = plan.next
                state.gaps += plan.gaps
                logs.append(Report.LogEntry(path: log, readable: true))
            case .failed(let failures, let readable):
                // Nothing of this log is counted or advanced: all of it is read again next run.
                failed.append(log)
                errors += failures.map(\.description)
                logs.append(Report.LogEntry(path: log, readable: readable, error: failures.first?.description))
            }
        }
        let clock = ClockTrust.judge(
            now: settings.now, saved: saved, newestRead: result.newest, trusted: settings.trustClock)
        let hold = clock.hold
        // Only a believed clock moves the newest line seen, and never past itself: a line stamped
        // ahead (a skewed host) must not vouch for a clock that far ahead later.
        if hold == nil, let newest = result.newest {
            let believable = min(newest, settings.now)
            state.newestSeen = max(state.newestSeen ?? believable, believable)
        }
        // Lines stamped past the horizon wait in the state; those whose hour the clock has now
        // reached (all of it) are counted with the lines this run read. A held clock reaches none.
        let unplaced = FutureLines.park(result.futureHours, in: &state, rules: configuration.rules)
        var read = result.hours.mapValues { HourCounts($0, configuration: configuration) }
        let released =
            hold == nil
            ? FutureLines.release(
                upTo: configuration.futureAfter - 3599, from: &state, into: &read, configuration: configuration) : 0
        var readiness = Readiness.of(
            failed: failed, configured: settings.logs, state: &state, now: settings.now)
        if hold != nil {
            readiness = .held
        } else {
            state.lastRunClock =
                clock.resets ? settings.now : max(saved.lastRunClock ?? settings.now, settings.now)
        }
        let before = Set(state.alerts.hours.keys)
        let backfillClock: Int64
        switch hold {
        case nil: backfillClock = settings.now
        case .behind(_, let lastRun): backfillClock = lastRun
        case .ahead(_, let reference): backfillClock = reference
        }
        apply(
            read, of: result, to: &state, settings: settings, readiness: readiness, generatedAt: generatedAt,
            backfillClock: backfillClock)
        let newAlerts = state.alerts.hours.keys.filter { !before.contains($0) }.sorted(by: HourKey.isEarlier)
        state.totals = RunTotals.after(
            state.totals, adding: read, of: result, now: settings.now,
            succeeded: errors.isEmpty && hold == nil,
            generatedAt: generatedAt)
        // The hours this run read or closed: the prune below may forget some of them (backfill
        // hours, an hour that closed late and healthy), but this run's report shows them, so that
        // every line it read, and every verdict it made, is in an hour of its report.
        let closedNow = state.hours.filter { $0.value.closed && saved.hours[$0.key]?.closed != true }.map(\.key)
        let touched = Set(read.keys.map(\.iso8601)).union(closedNow)
        let beforePrune = state.hours.filter { touched.contains($0.key) }
        let expired = hold == nil ? prune(&state, settings: settings) : []
        if !expired.isEmpty, var totals = state.totals {
            totals.alertsExpired = (totals.alertsExpired ?? 0) + Int64(expired.count)
            state.totals = totals
        }
        var shown = state
        shown.hours.merge(beforePrune) { kept, _ in kept }
        let report = RunReport.build(
            state: shown, sources: result.sources, settings: settings, generatedAt: generatedAt, logs: logs)
        let unalerted = report.hours.filter { $0.backfill == true && $0.alerted }.map(\.hour)
        return RunOutcome(
            state: state, report: report, newAlerts: newAlerts, expiredAlerts: expired, errors: errors, logs: logs,
            sources: result.sources, future: result.future, futureUnplaced: unplaced, released: released,
            samples: result.samples, unalertedBackfill: unalerted, closedNow: closedNow.sorted(by: HourKey.isEarlier),
            clockHold: hold, rekeyedHours: rekeyed, retiredClasses: retired)
    }

    /// How often a log whose bytes changed while being read is planned again in one run.
    static let maxAttempts = 5

    /// The longest a run waits, for all its logs together, for logs an earlier run read that are
    /// gone or unreadable: logrotate renames the log, then creates the next one as root with
    /// mode 0600, and only then gives it its owner and mode (`create 0640 www-data adm`); with
    /// `nocreate`, nginx creates it when it reopens its logs. A second per run keeps a missing
    /// mount with many logs from holding the lock for long.
    static let absentWaitMilliseconds = 1000

    /// What is left of a run's wait for absent logs.
    struct AbsentWait {
        var budget: Int
        let shouldStop: () -> Bool
        /// Waits a little longer each time (100, 200, ... ms) while the budget lasts and the run
        /// is not being stopped; false when it did not wait.
        mutating func pause(_ round: Int) -> Bool {
            guard budget > 0, !shouldStop() else { return false }
            let milliseconds = min(100 * round, budget)
            budget -= milliseconds
            Syscalls.sleep(milliseconds: milliseconds)
            return true
        }
    }

    enum LogRead {
        case read(AuditResult, LogPlan)
        /// Nothing read or advanced; `readable` is false when the configured log itself is not.
        case failed([InputError], readable: Bool)
    }

    /// Reads one log: opens its files once, plans, reads each step from its descriptor and
    /// checks that the bytes read are the ones planned; when they are not (a rotation or a
    /// truncation meanwhile), plans again from the files as they are now.
    static func read(
        _ log: String, saved: RunState.LogState?, worker: Worker, configuration: ScanConfiguration,
        at generatedAt: String, rotatedDirectory: String? = nil, wait: inout AbsentWait
    ) -> LogRead {
        var lastChange = ""
        var changes = 0
        var waits = 0
        while true {
            let snapshot: LogSnapshot
            do {
                snapshot = try LogSnapshot.open(
                    logPath: log, previous: LogSnapshot.previousPaths(saved), previousTarget: saved?.current?.target,
                    previousModified: saved?.current?.modified, rotatedDirectory: rotatedDirectory)
            } catch {
                // Gone or unreadable although an earlier run read it, or a rotated file not yet
                // readable: a rotation under way (``absentWaitMilliseconds``), waited out; still
                // so after that is the error.
                if saved != nil, error.transient || LogSnapshot.mayBeRotating(log), wait.pause(waits + 1) {
                    waits += 1
                    continue
                }
                return .failed([error], readable: false)
            }
            var plan = LogPlanner.plan(
                logPath: log, saved: saved, snapshot: snapshot, detectedAt: generatedAt,
                clock: LineClock(format: configuration.format))
            guard plan.errors.isEmpty else { return .failed(plan.errors, readable: true) }
            var changed = plan.changed
            var result = AuditResult(classCount: configuration.rules.classCount, sampleLimit: configuration.sampleLimit)
            for step in plan.steps where changed == nil {
                switch execute(step, worker: worker) {
                case .read(let tally, let bytes):
                    result.absorb(tally, path: step.path, firstLine: 1, escape: configuration.format.escape)
                    var source = AuditResult.Source(
                        path: step.path, lines: tally.lines, bytes: bytes, malformed: tally.malformed)
                    source.keepProbe(from: tally)
                    result.sources.append(source)
                case .unreadable(let tally, let bytes, let lineEnd, let error):
                    // A corrupt or cut-short rotated .gz: what it held before the damage is
                    // counted, the rest is a gap, and the other files (the live log) are read.
                    var reason =
                        "the compressed rotated file could not be read past this offset of its decompressed content (\(error.reason)); the lines before it were counted"
                    if let tally {
                        result.absorb(tally, path: step.path, firstLine: 1, escape: configuration.format.escape)
                        var source = AuditResult.Source(
                            path: step.path, lines: tally.lines, bytes: bytes, malformed: tally.malformed)
                        source.unverified = error.unverified
                        source.keepProbe(from: tally)
                        // Lines of it an earlier run committed confirm the format too.
                        source.formatConfirmed = step.from > 0
                        result.sources.append(source)
                        if source.unverified, source.mostlyMalformed {
                            // Unless the format is not confirmed (then the run stops at the
                            // format mismatch), the damage decoded into these lines.
                            reason +=
                                ", \(tally.malformed) of the \(tally.lines) as malformed: damaged data decodes to lines of no format, so most of them are likely lost requests"
                        }
                    }
                    plan.gaps.append(
                        Report.Gap(
                            log: log, file: step.path, fromOffset: lineEnd, toOffset: nil, reason: reason,
                            detectedAt: generatedAt))
                case .failed(let error):
                    return .failed([error], readable: true)
                case .changed(let why):
                    changed = "\(step.path): \(why)"
                }
            }
            confirmFormat(&result.sources, format: configuration.format)
            // The live log as committed: no shorter than when it was opened, and starting with
            // the bytes its identity was taken from. A copytruncate while planning changes both
            // even when no step read it (its offset would be committed with the old identity).
            if changed == nil, let why = liveLogChanged(snapshot.log) { changed = "\(log): \(why)" }
            guard let changed else { return .read(result, plan) }
            lastChange = changed
            changes += 1
            if changes == maxAttempts { break }
            // A rotation under way (logrotate renaming, compressing): give it a moment.
            Syscalls.sleep(milliseconds: 100 * changes)
        }
        return .failed(
            [
                InputError(
                    path: log,
                    reason:
                        "its files changed while being read, \(maxAttempts) times in a row (last: \(lastChange))")
            ], readable: true)
    }

    /// Sets ``AuditResult/Source/formatConfirmed`` for the damaged files among one log's `sources`:
    /// another of its files mostly of lines the format parses confirms the format, as lines an
    /// earlier run committed of the file itself do; unless the file's own lines parse as another
    /// known format (a rotated file from before the format changed).
    static func confirmFormat(_ sources: inout [AuditResult.Source], format: LogFormat) {
        guard sources.contains(where: \.unverified) else { return }
        let confirmed = sources.contains {
            !$0.unverified && $0.lines - $0.malformed >= AuditResult.Source.confirmingLines && !$0.mostlyMalformed
        }
        let others = BuiltinFormats.names.filter { $0 != format.name }.compactMap { try? BuiltinFormats.named($0) }
        for i in sources.indices where sources[i].unverified {
            sources[i].formatConfirmed =
                (confirmed || sources[i].formatConfirmed)
                && FormatProbe.otherFit(sources[i].probe, given: format, among: others) == nil
        }
    }

    /// Why the live log is not as it was opened (shorter, or other first bytes), or nil.
    static func liveLogChanged(_ file: LogFile) -> String? {
        do {
            let size = try file.currentSize()
            if size < file.status.size { return "truncated to \(size) bytes from \(file.status.size) while planned" }
            if try !file.startsAsOpened() {
                return "its first bytes changed while it was planned"
            }
        } catch {
            return "\(error.reason) while it was planned"
        }
        return nil
    }

    enum StepRead {
        case read(Tally, Int64)
        /// A compressed file unreadable from `lineEnd` (decompressed offset, after the last
        /// complete line read) on: the lines before it are in the tally, if any were read.
        case unreadable(Tally?, Int64, lineEnd: Int64, InputError)
        case failed(InputError)
        /// The bytes read are not the ones planned: the file was truncated or rewritten meanwhile.
        case changed(String)
    }

    /// Reads one planned stretch into a tally, from the descriptor it was planned on, and checks
    /// afterwards that it was all there and that the file still starts with the same bytes.
    static func execute(_ step: ReadStep, worker: Worker) -> StepRead {
        let file = step.file
        if step.compressed {
            do {
                let gzip = try GzipSource(base: LogFileSource(file: file, from: 0, to: nil), path: step.path)
                var source = LineEndTracking(base: SkippingSource(base: gzip, skip: step.from))
                let (tally, failure) = worker.audit(&source)
                if let failure {
                    return .unreadable(tally, source.consumed, lineEnd: step.from + source.lineEnd, failure)
                }
                return .read(tally, source.consumed)
            } catch {
                return .unreadable(nil, 0, lineEnd: step.from, error)
            }
        }
        var source = LogFileSource(file: file, from: step.from, to: step.to)
        let (tally, failure) = worker.audit(&source)
        if let failure { return .failed(failure) }
        guard let to = step.to else { return .read(tally, source.consumed) }
        if source.consumed != to - step.from {
            return .changed("read \(source.consumed) of the \(to - step.from) bytes planned from \(step.from)")
        }
        do {
            let size = try file.currentSize()
            if size < to { return .changed("truncated to \(size) bytes while bytes up to \(to) were read") }
            if try !file.startsAsOpened() {
                return .changed("its first bytes changed while it was read (truncated and written again)")
            }
        } catch {
            return .failed(error)
        }
        return .read(tally, source.consumed)
    }

    static func merge(_ part: AuditResult, into whole: inout AuditResult) {
        for (key, hour) in part.hours {
            if var existing = whole.hours[key] {
                existing.add(hour)
                whole.hours[key] = existing
            } else {
                whole.hours[key] = hour
            }
        }
        whole.malformed += part.malformed
        whole.future += part.future
        AuditResult.addFuture(part.futureHours, to: &whole.futureHours)
        for sample in part.samples where whole.samples.count < whole.sampleLimit { whole.samples.append(sample) }
        whole.sources += part.sources
        if let newest = part.newest { whole.newest = max(whole.newest ?? newest, newest) }
    }

    /// Adds this run's counts to the hours, then closes the hours that are due
    /// (``close(_:settings:readiness:generatedAt:)``).
    static func apply(
        _ read: [HourKey: HourCounts], of result: AuditResult, to state: inout RunState, settings: RunSettings,
        readiness: Readiness, generatedAt: String, backfillClock: Int64
    ) {
        let rules = settings.scan.rules
        for (key, counts) in read {
            let iso = key.iso8601
            var hour = state.hours[iso] ?? RunState.HourState()
            // A held clock is not what hours are too old to alert against: the last believed
            // run's clock (or the newest line seen, for a clock ahead) is.
            if state.hours[iso] == nil, isBackfill(key, now: backfillClock, historyHours: settings.historyHours) {
                hour.backfill = true
            }
            hour.counts.add(counts)
            if hour.counts.uas.count > uasPerHour {
                let kept = hour.counts.uas.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .prefix(uasPerHour)
                hour.counts.uas = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
                hour.counts.uasApproximate = true
            }
            if hour.closed {
                hour.late += counts.lines
                // Only alert-class lines can take a healthy hour over the threshold.
                if !hour.breached, counts[name: rules.alertClass] > 0 { hour.redecide = true }
            }
            state.hours[iso] = hour
        }
        redecideIncomplete(in: &state, settings: settings, readiness: readiness, generatedAt: generatedAt)
        let runHour = HourKey(localHour: settings.now / 3600, offsetMinutes: 0).iso8601
        if result.malformed > 0 { state.malformed[runHour, default: 0] += result.malformed }
        for sample in result.samples {
            state.malformedSamples.append(
                Report.SampleEntry(
                    path: sample.path, line: sample.line, text: ReportText.render(sample.text),
                    reason: sample.reason.rawValue))
        }
        if state.malformedSamples.count > settings.scan.sampleLimit {
            state.malformedSamples.removeFirst(state.malformedSamples.count - settings.scan.sampleLimit)
        }

        close(&state, settings: settings, readiness: readiness, generatedAt: generatedAt)
    }

    /// An hour closed healthy is decided again on the alert-class lines that arrive for it later
    /// (a lagging log; a clock a little ahead that closed it on its first minutes), by the first
    /// run that may decide (``RunState/HourState/redecide`` keeps them for it), and one closed
    /// `incomplete` (a log was missing past the hold) by each run that may decide, as the
    /// missing log's lines may come in a run that could not: if it breaches now and has no
    /// alert yet, it alerts, under the id any run would give it. Once every log is read again it
    /// is no longer incomplete.
    static func redecideIncomplete(
        in state: inout RunState, settings: RunSettings, readiness: Readiness,
        generatedAt: String
    ) {
        // A held clock (or a log still missing) decides nothing; the next run that may does.
        guard readiness != .held else { return }
        let rules = settings.scan.rules
        for iso in state.hours.keys.sorted() {
            guard var hour = state.hours[iso], hour.closed, hour.backfill != true,
                hour.incomplete == true || hour.redecide == true
            else {
                continue
            }
            hour.redecide = nil
            // An hour older than the window is never alerted, whatever reaches it late.
            if let key = HourKey(iso8601: iso), isBackfill(key, now: settings.now, historyHours: settings.historyHours)
            {
                if readiness == .complete { hour.incomplete = nil }
                state.hours[iso] = hour
                continue
            }
            let breached = AlertPolicy.breaches(
                alertCount: hour.counts[name: rules.alertClass], requests: hour.counts.requests,
                threshold: settings.scan.threshold,
                minRequests: settings.scan.minRequests)
            if breached, !hour.breached, state.alerts.hours[iso] == nil {
                hour.breached = true
                state.alerts.record(
                    hour: iso,
                    id: HourAlertID.make(host: settings.host, logs: settings.logs, hour: iso, kinds: [.share]),
                    kinds: [.share], at: generatedAt, mode: settings.alertMode)
            }
            if readiness == .complete { hour.incomplete = nil }
            state.hours[iso] = hour
        }
    }

    /// Whether the hour's drift alert fires, against the hours of the state before it.
    /// When the client salt is not the one the state's client sets were keyed with, their
    /// clients can be matched with no later one: each hour keeps its counts (a client seen
    /// again counts again) and loses its sample and examples. Returns the hours so changed.
    static func rekeyClients(_ state: inout RunState, salt: ClientSalt) -> [String] {
        let saved = state.clientSalt ?? ClientSalt.standard.fingerprint
        state.clientSalt = salt.isStandard ? nil : salt.fingerprint
        guard saved != salt.fingerprint else { return [] }
        var changed: [String] = []
        for key in state.hours.keys.sorted(by: HourKey.isEarlier) where state.hours[key]?.counts.insight?.clients != nil
        {
            state.hours[key]?.counts.insight?.clients?.forgetKeys()
            state.hours[key]?.counts.insight?.releases?.freeze()
            changed.append(key)
        }
        return changed
    }

    /// Records the rules this run counts with in the state and, when they are not the ones its
    /// hours were counted with, returns the classes those hours counted that these rules lack,
    /// with their lines: nil when the rules are the same (or when a state that did not record
    /// them holds no such class). Hours already counted keep their classes; lines read from
    /// now on are classed by these rules.
    static func noteRules(_ state: inout RunState, rules: RuleSet) -> [String: Int64]? {
        let digest = ReportIdentity.rulesDigest(rules.summary)
        let saved = state.rules
        state.rules = digest
        guard saved != digest else { return nil }
        let known = Set(rules.classNames)
        var retired: [String: Int64] = [:]
        for hour in Array(state.hours.values) + Array((state.waiting ?? [:]).values) {
            for (name, n) in hour.counts.classes where n > 0 && !known.contains(name) { retired[name, default: 0] += n }
        }
        guard saved != nil || !retired.isEmpty else { return nil }
        return retired
    }

    /// Hashes the client examples a state holds as logged (written before examples were
    /// hashed on their way into the state, or by a run with `--show-client-keys`), unless this
    /// run shows keys: no address stays in the state it commits.
    static func hideClientKeys(_ state: inout RunState, insight: InsightSettings) {
        guard !insight.showClientKeys else { return }
        for key in state.hours.keys where state.hours[key]?.counts.insight?.clients?.examplesHashed == false {
            state.hours[key]?.counts.insight?.clients?.showExamples(salt: insight.salt, full: false)
        }
    }

    static func driftAlert(_ iso: String, in state: RunState, settings: RunSettings) -> Bool {
        let inputs = RunReport.insightInputs(state: state)
        guard let i = inputs.firstIndex(where: { $0.key.iso8601 == iso }) else { return false }
        return InsightReport.drift(at: i, in: inputs, policy: DriftPolicy(settings.scan)).alert
    }

    /// Forgets what is older than the history window (but never an hour an alert still waits for).
    static func prune(_ state: inout RunState, settings: RunSettings) -> [String] {
        let cutoff = settings.now - settings.historyHours * 3600
        let expired = state.alerts.prune(now: settings.now, historyHours: settings.historyHours)
        for hour in expired { state.hours[hour] = nil }
        let pending = Set(state.alerts.pending)
        for (iso, hour) in state.hours where hour.closed && !pending.contains(iso) {
            if let key = HourKey(iso8601: iso), key.startInstant + 3600 <= cutoff { state.hours[iso] = nil }
        }
        for (runHour, _) in state.malformed {
            if let key = HourKey(iso8601: runHour), key.startInstant + 3600 <= cutoff { state.malformed[runHour] = nil }
        }
        if state.gaps.count > 100 { state.gaps.removeFirst(state.gaps.count - 100) }
        return expired
    }
}
