import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// What `run` says on stderr about the lines and hours it worked out, around delivery.
extension RunExecution {
    /// Once no log mismatches its format, before anything is sent: short inputs that another
    /// format parses, and lines stamped ahead of the clock.
    func beforeDelivery(_ outcome: RunEngine.RunOutcome) {
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
    }

    /// After delivery, before the commit: hours waiting for a channel, breached hours dropped
    /// unsent, a clock not believed, hours counted under another salt, backfill not alerted.
    func afterDelivery(_ outcome: RunEngine.RunOutcome, pending: Int) {
        if !quiet, job.settings.alertMode == .unconfigured, pending > 0 {
            console.error(AlertLedger.unconfiguredNotice(pending: pending))
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
        if let retired = outcome.retiredClasses { console.error(RunExecution.rulesNotice(retired: retired)) }
        if let first = outcome.unalertedBackfill.first, let last = outcome.unalertedBackfill.last {
            console.error(
                RunExecution.backfillNotice(
                    count: outcome.unalertedBackfill.count, first: first, last: last,
                    historyHours: job.settings.historyHours))
        }
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

    /// That the rules are not the ones the state's hours were counted with, and what became of
    /// the classes they lack, wrapped to 80 columns (the names escaped: a state is a file).
    static func rulesNotice(retired: [String: Int64]) -> String {
        var text =
            "the rules are not the ones the state's hours were counted with: hours already counted keep "
            + "the classes they were given, and lines read from now on are classed by these rules"
        if !retired.isEmpty {
            let named = retired.sorted { $0.key < $1.key }.map {
                "\($0.key) (\($0.value) line\($0.value == 1 ? "" : "s"))"
            }
            let one = retired.count == 1
            text +=
                "; \(named.joined(separator: ", ")) \(one ? "is no class" : "are no classes") of these rules and "
                + "\(one ? "stays" : "stay") counted under \(one ? "its name" : "their names"), in the requests "
                + "and the report"
        }
        // After "uaaudit: ", then two spaces in.
        return TerminalText.wrapped(text, indent: "", width: 80 - 9).joined(separator: "\n  ")
    }

    /// Why breached backfill hours were reported and not alerted, in one line for any number.
    static func backfillNotice(count: Int, first: String, last: String, historyHours: Int64) -> String {
        let what = count == 1 ? "the breached hour \(first) was" : "\(count) breached hours (\(first) to \(last)) were"
        return "\(what) already history_hours (\(historyHours) h) old when first read: "
            + "reported with \"backfill\": true and not alerted; "
            + "raise history_hours to alert on older hours"
    }
}
