import UAAuditInput

extension RunTransaction {
    /// What the run read and worked out, before anything was written.
    package struct Computed: Sendable {
        package var run: RunEngine.RunOutcome
        /// The state as the previous run committed it.
        package var saved: RunState
        /// The run's clock, as the report stamps it.
        package var generatedAt: String
    }

    /// What the caller hears while the run goes on, at the moment it happens: a notice it prints
    /// then is out even if the process is killed at the next step, and a long delivery shows
    /// each channel's answer as it comes.
    package enum Event: Sendable {
        /// The logs were read and the hours worked out.
        case computed(Computed)
        /// The report is written (or was not asked for, or goes to stdout); `html` says what
        /// became of the page, when one was asked for.
        case reportWritten(html: OutputWrite?)
        /// No log mismatches its format: the run goes on to deliver and commit.
        case formatChecked
        /// One message to one channel went out, or did not.
        case attempt(LedgerDelivery.Attempt)
        /// Delivery is over: the breached hours this run delivered, and those still pending.
        case deliveryEnded(sent: Int, pending: Int)
    }

    /// Where the run ended, and why. Only ``committed(_:)`` changed the state.
    package enum Outcome: Sendable {
        /// Another run held the lock for the whole wait; nothing was touched.
        case busy(lock: String, waited: Double)
        /// The lock file could not be opened or locked; nothing was touched.
        case lockUnusable(lock: String, error: any Error)
        /// The state could not be read; it is left as it is.
        case stateUnusable(StateError)
        /// A stop signal came before the commit: nothing committed, the next run redoes this one.
        case stopped(signal: Int32)
        /// The report could not be encoded or written: nothing sent or committed.
        case reportNotWritten(path: String, error: any Error)
        /// A log does not match its format: nothing sent or committed, so that its lines are read
        /// again once the format is fixed. `metrics` (the committed totals) when asked for.
        case formatMismatch(Computed, metrics: OutputWrite?)
        /// The state could not be written, before delivering (nothing was sent) or after.
        case notCommitted(error: any Error, beforeDelivering: Bool)
        /// The state was committed.
        case committed(Committed)
    }

    /// A run that committed its state, and what else it did.
    package struct Committed: Sendable {
        /// What the run read and worked out (``Event/computed(_:)`` said it first).
        package var computed: Computed
        /// The HTML page's write, when one was asked for.
        package var html: OutputWrite?
        /// What each channel was sent and what became of it.
        package var delivery: LedgerDelivery.Outcome
        /// The metrics' write, when asked for (written after the commit).
        package var metrics: OutputWrite?
        /// The hours this run closed that alert (a backfill hour never does).
        package var alerting: [String]
        /// A stop signal that came during delivery: what was delivered is committed.
        package var stopSignal: Int32?
    }
}
