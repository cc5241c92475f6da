extension RunEngine {
    /// A clock a run does not believe: well behind the last believed run's, or well ahead of
    /// both that and the newest line seen. The run counts what it read into its hours, but
    /// closes, prunes, marks backfill and decides nothing on that clock; a later run decides.
    package enum ClockHold: Equatable, Sendable {
        /// The clock is this many seconds behind the last believed run's (`lastRun`).
        case behind(seconds: Int64, lastRun: Int64)
        /// The clock is this many seconds ahead of `reference`: the later of the last believed
        /// run's clock and the newest line seen (not ahead of a clock that was believed).
        case ahead(seconds: Int64, reference: Int64)
    }

    /// Whether to believe a run's clock (issue 30). The logs carry the real time, and the state
    /// the clock of the last run that was believed (`last_run_clock`):
    /// - A first run has nothing to check against: believed. Its old lines are a backfill.
    /// - `--trust-clock`: believed, and its clock is the one later runs are checked against.
    /// - New lines this run read whose newest is within the hour before its clock (and not
    ///   ahead of it) vouch for it: believed, even well behind the last run's (that one was
    ///   wrong: a first run a year ahead), whose clock it replaces.
    /// - Otherwise a clock more than 10 minutes behind the last believed run's is held (an RTC
    ///   before NTP syncs, a restored VM), and so is one more than 2 hours ahead of both that
    ///   clock and the newest line seen (a clock jumped ahead; runs an hour apart, or a log
    ///   written to, never are). A log quiet for 2 hours whose runs are further apart than
    ///   that looks the same, and is held until a line arrives or `--trust-clock`.
    package enum ClockTrust {
        static let behindToleranceSeconds: Int64 = 600
        static let aheadToleranceSeconds: Int64 = 2 * 3600
        /// How old the newest line a run read may be and still vouch for its clock.
        static let vouchingSeconds: Int64 = 3600

        struct Verdict {
            var hold: ClockHold?
            /// Believed against the last run's clock: later runs are checked against this one.
            var resets: Bool
        }

        static func judge(now: Int64, saved: RunState, newestRead: Int64?, trusted: Bool) -> Verdict {
            guard let last = saved.lastRunClock else { return Verdict(hold: nil, resets: false) }
            if trusted { return Verdict(hold: nil, resets: true) }
            if let newest = newestRead, newest >= now - vouchingSeconds,
                newest <= now + RunSettings.futureToleranceSeconds
            {
                return Verdict(hold: nil, resets: now < last)
            }
            if now < last - behindToleranceSeconds {
                return Verdict(hold: .behind(seconds: last - now, lastRun: last), resets: false)
            }
            let lines = newestRead.map { min($0, now + RunSettings.futureToleranceSeconds) }
            let reference = [last, saved.newestSeen, lines].compactMap { $0 }.max() ?? last
            if now - reference > aheadToleranceSeconds {
                return Verdict(hold: .ahead(seconds: now - reference, reference: reference), resets: false)
            }
            return Verdict(hold: nil, resets: false)
        }
    }
}
