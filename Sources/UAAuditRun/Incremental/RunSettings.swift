import UAAuditAudit
import UAAuditInput

/// A compiled `uaaudit run`: what to audit, and the incremental policy.
package struct RunSettings: Sendable {
    package var scan: ScanConfiguration
    package var logs: [String]
    /// The wall clock (seconds since the epoch); `--now` replaces it.
    package var now: Int64
    /// How long after an hour's end late lines are waited for before it closes.
    var graceSeconds: Int64
    /// How many hours the report and the state keep.
    package var historyHours: Int64
    /// Where breached hours go: the channels (by key), none yet, or nowhere on purpose.
    package var alertMode: AlertLedger.Mode
    /// The host name alerts carry (and their ids hash).
    var host: String
    /// Where rotated files are looked for besides each log's own directory (logrotate's
    /// `olddir`); relative to the log's directory. `--rotated-dir`, config `rotated_dir`.
    package var rotatedDirectory: String? = nil
    /// `--trust-clock`: this run's clock is right, whatever the last run's or the lines say
    /// (``RunEngine/ClockTrust``); it becomes the clock later runs are checked against.
    package var trustClock = false

    /// Lines stamped up to this after `now` belong to their hour without a word (clocks differ
    /// by seconds or minutes).
    static let futureToleranceSeconds: Int64 = 300

    /// Lines stamped further ahead of `now` than this are counted in `totals.future` and in no
    /// hour: a line dated a year ahead (a forged `$time_iso8601`, a broken clock) must not hold
    /// an hour open for a year. Nearer ones (a log host whose clock is ahead, a backfill with
    /// `--now`, the clock stepped back) count in their hours, which stay open until the clock
    /// reaches them: consumed lines are never left uncounted for being early.
    package var futureHorizonSeconds: Int64 { max(Self.futureToleranceSeconds, historyHours * 3600) }
    /// A log unreadable for longer than this no longer keeps hours open: they close, marked
    /// `incomplete`.
    static let unreadableHoldSeconds: Int64 = 2 * 3600

    package init(
        scan: ScanConfiguration, logs: [String], now: Int64,
        graceSeconds: Int64 = Int64(Settings.graceSeconds.defaultInt),
        historyHours: Int64 = Int64(Settings.historyHours.defaultInt),
        alertMode: AlertLedger.Mode = .unconfigured, host: String = "localhost"
    ) {
        self.scan = scan
        self.logs = logs
        self.now = now
        self.graceSeconds = graceSeconds
        self.historyHours = historyHours
        self.alertMode = alertMode
        self.host = host
    }
}
