import UAAuditReport

/// Writes a notification as a message a person reads at a glance on a phone: the host, the
/// breached hours with their share against the threshold and their counts per class, the most
/// frequent alert-class UAs (made inert by ``UntrustedText``), and the id.
///
/// ``fitted(_:)`` cuts the lists, never the markup, until the channel's size limit is met.
struct MessageComposer {
    static let uaLimit = 120
    static let hostLimit = 64

    let notification: AlertNotification
    let style: MessageStyle

    /// The one-line title (DingTalk shows it in the notification preview).
    var title: String {
        let host = UntrustedText.neutralise(notification.host, limit: Self.hostLimit)
        if notification.test { return "uaaudit test message from \(host)" }
        if !notification.hours.contains(where: \.alert) { return "uaaudit: User-Agent drift on \(host)" }
        let threshold = share(notification.threshold.value)
        return "uaaudit: \(notification.alertClass) UAs over \(threshold) on \(host)"
    }

    /// The alert-class UAs of all the hours, most frequent first (ties by text), made inert.
    var topUAs: [(ua: String, count: Int64)] {
        var counts: [String: Int64] = [:]
        for hour in notification.hours { for entry in hour.top { counts[entry.ua, default: 0] += entry.count } }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { (UntrustedText.shown($0.key, limit: Self.uaLimit, style: style), $0.value) }
    }

    /// The longest message that `fits` accepts: UAs are dropped from the end of their list
    /// first, then hours from the end of theirs (at least one hour stays). When one hour does
    /// not fit with its full `uaaudit explain` command (a scan of many long log paths), the
    /// commands and the report's path take their short form (``shortCommand(hour:)``) and the
    /// lists are cut again from the start.
    func fitted(_ fits: (String) -> Bool) -> String { fit(fits).text }

    /// ``fitted(_:)`` and how many of the notification's hours (the first ones) it shows.
    ///
    /// `fits` is a limit on size (bytes of the text or of the body that carries it). Each
    /// paragraph and UA line is made once (``Parts``); after the full message, every shorter
    /// candidate is shorter than the one before (each drops a UA line or an hour's paragraph,
    /// longer than the digit its "(+N more … not shown)" gains), so the first that fits is
    /// found by bisection: a few assemblies of the text instead of one per UA and hour, which
    /// made hundreds of breached hours cost minutes (issue 31).
    func fit(_ fits: (String) -> Bool) -> (text: String, hours: Int) {
        let uas = topUAs
        let hourTotal = notification.hours.count
        // Candidate 0 shows everything; 1...uas.count drop UAs; then hours go, down to one.
        let steps = uas.count + max(hourTotal - 1, 0)
        func shown(_ step: Int) -> (hours: Int, uas: Int) {
            step <= uas.count ? (hourTotal, uas.count - step) : (hourTotal - (step - uas.count), 0)
        }
        var last = ""
        for short in [false, true] {
            let parts = self.parts(uas: uas, short: short)
            func text(_ step: Int) -> String {
                let (hours, uaCount) = shown(step)
                return parts.assembled(hours: hours, uaCount: uaCount)
            }
            let full = text(0)
            if fits(full) { return (full, min(shown(0).hours, hourTotal)) }
            var low = 1
            var high = steps + 1
            while low < high {
                let middle = low + (high - low) / 2
                if fits(text(middle)) { high = middle } else { low = middle + 1 }
            }
            if low <= steps { return (text(low), min(shown(low).hours, hourTotal)) }
            last = steps == 0 ? full : text(steps)
        }
        return (last, min(1, hourTotal))
    }

    /// The longest a path is shown in the short form: its end, after `…`.
    static let shortPathLimit = 120

    /// What replaces an hour's explain command that does not fit, or that the channel's
    /// escaping would change: the hour and the report when there is one (its path cut to its
    /// end) and the channel shows that unchanged, else where the figures come from.
    func shortCommand(hour: String) -> String {
        let described = "uaaudit explain \(hour) with the logs and options that made this alert"
        guard let report = notification.report else { return described }
        let command = "uaaudit explain \(hour) " + AlertLinks.shellQuoted(Self.shortPath(report))
        return style.showsAsIs(command) ? command : described
    }

    /// The hour's explain command as the message shows it: `command` when it is not `short`
    /// and the channel shows it unchanged, else ``shortCommand(hour:)``. A command altered by
    /// the escaping (DingTalk's `［` for `[`, `｜` for `|`…) would look right and fail, so it
    /// is never shown.
    func shownCommand(_ command: String, hour: String, short: Bool) -> String {
        !short && style.showsAsIs(command) ? command : shortCommand(hour: hour)
    }

    /// A path cut to its last ``shortPathLimit`` characters.
    static func shortPath(_ path: String) -> String {
        path.count <= shortPathLimit ? path : "…" + String(path.suffix(shortPathLimit))
    }

    /// The message with the first `hours` hours and the first `uaCount` UAs.
    func render(hours: Int, uas: [(ua: String, count: Int64)], uaCount: Int, short: Bool = false) -> String {
        parts(uas: uas, short: short).assembled(hours: hours, uaCount: uaCount)
    }

    /// A message's paragraphs and UA lines, each made once, put together for any number of
    /// the first hours and UAs by ``assembled(hours:uaCount:)``.
    struct Parts {
        /// The whole text of a test message, which has no lists.
        var test: String?
        /// The title and the summary.
        var head: [String] = []
        /// One paragraph per hour.
        var hours: [String] = []
        var uaHeading = ""
        /// One line per UA.
        var uaLines: [String] = []
        /// The report's path and the id.
        var tail: [String] = []
        var lineBreak = "\n"

        func assembled(hours shownHours: Int, uaCount: Int) -> String {
            if let test { return test }
            var paragraphs = head
            paragraphs += hours.prefix(max(shownHours, 0))
            if shownHours < hours.count { paragraphs.append("(+\(hours.count - shownHours) more hours not shown)") }
            if !uaLines.isEmpty {
                var list = [uaHeading]
                list += uaLines.prefix(max(uaCount, 0))
                if uaCount < uaLines.count { list.append("(+\(uaLines.count - uaCount) more UAs not shown)") }
                paragraphs.append(list.joined(separator: lineBreak))
            }
            paragraphs += tail
            return paragraphs.joined(separator: "\n\n")
        }
    }

    /// The paragraphs and UA lines of the message; `short` gives the explain commands and the
    /// report's path their short form.
    func parts(uas: [(ua: String, count: Int64)], short: Bool) -> Parts {
        let n = notification
        var parts = Parts(lineBreak: style.lineBreak)
        if n.test {
            parts.test = [
                style.bold(title),
                "This is a test of the alert channel, sent by uaaudit alert test at \(n.generatedAt). No action is needed.",
                "id \(n.id)",
            ].joined(separator: "\n\n")
            return parts
        }
        parts.head = [style.bold(title)]
        var range = ""
        if let from = n.from, let to = n.to {
            let start = Report.shortHour(from)
            let end = Report.shortHour(to)
            range = " from \(start) to " + (start.prefix(11) == end.prefix(11) ? String(end.dropFirst(11)) : end)
        }
        let shareHours = n.hours.filter(\.alert).count
        let driftHours = n.hours.filter { $0.drift?.alert == true }.count
        var summary: [String] = []
        if shareHours > 0 {
            summary.append(
                "\(shareHours) hour\(shareHours == 1 ? "" : "s") with the \(n.alertClass) share above "
                    + "\(share(n.threshold.value)) and at least \(n.minRequests) requests")
        }
        if driftHours > 0 { summary.append("\(driftHours) hour\(driftHours == 1 ? "" : "s") with a User-Agent drift") }
        parts.head.append(summary.joined(separator: ", ") + range)
        parts.hours = n.hours.map { hourParagraph($0, short: short) }
        parts.uaHeading = "Top \(n.alertClass) UAs:"
        parts.uaLines = uas.map { "\(style.bullet)\($0.count) × \($0.ua)" }
        if let report = n.report { parts.tail.append("report: " + style.code(short ? Self.shortPath(report) : report)) }
        parts.tail.append("id \(n.id)")
        return parts
    }

    /// One hour's paragraph: its share and counts, what its alert-class requests cost, and its
    /// explain command.
    func hourParagraph(_ hour: Report.HourEntry, short: Bool) -> String {
        let n = notification
        let alertCount = hour.classes[n.alertClass] ?? 0
        let head =
            style.bold(Report.shortHour(hour.hour)) + ": \(share(hour.share)) "
            + "(\(alertCount) of \(hour.requests) requests)"
            + (hour.id.map { " · id \($0.prefix(HourAlertID.shortLength))" } ?? "")
        let classes = n.classOrder.map { "\($0) \(hour.classes[$0] ?? 0)" }.joined(separator: " · ")
        var lines = [head]
        if !classes.isEmpty { lines.append(classes) }
        lines += insightLines(hour)
        if let command = n.explain?[hour.hour] {
            lines.append("explain: " + style.code(shownCommand(command, hour: hour.hour, short: short)))
        }
        return lines.joined(separator: style.lineBreak)
    }

    /// What the hour's alert-class requests cost, who is split, and what drifted.
    func insightLines(_ hour: Report.HourEntry) -> [String] {
        let alert = notification.alertClass
        var lines: [String] = []
        if let s = hour.impact?[alert] {
            lines.append("\(alert) \(hour.classes[alert] ?? 0), of which \(s.s403) got 403 and \(s.s401) got 401")
        }
        if let paths = hour.topPaths, !paths.isEmpty {
            let listed = paths.prefix(3).map {
                "\(UntrustedText.neutralise($0.path, limit: Self.pathLimit)) \($0.count) (\($0.rejected) refused)"
            }
            lines.append("paths: " + listed.joined(separator: " · "))
        }
        if let c = hour.clients, c.split > 0 {
            lines.append(
                "split clients: \(c.exact ? "" : "about ")\(c.split) of \(c.app) app clients "
                    + "(\(Self.percent(c.splitShare))) by \(c.key)")
        }
        // One cause line per message: the first hour's largest family (the hours that follow
        // usually have the same; each line would cost a chat message's room for two hours).
        if hour.hour == notification.hours.first?.hour, let cause = hour.causes?.first {
            lines.append(causeLine(cause))
        }
        if let drift = hour.drift, drift.alert {
            lines += drift.reasons.map { "drift: " + UntrustedText.neutralise($0, limit: Self.uaLimit * 2) }
        }
        return lines
    }

    static let pathLimit = 60

    /// The hour's largest inconsistent family in one line: its stack, release, iOS versions and
    /// fix (``CauseReport``); the family as code, and the bundle, SDK and versions (text from
    /// the log) neutralised.
    func causeLine(_ c: Report.CauseEntry) -> String {
        let shown = { (text: String) in UntrustedText.neutralise(text, limit: Self.pathLimit) }
        return "cause: " + UntrustedText.shown(c.family, limit: Self.uaLimit, style: style) + " (\(c.requests)) — "
            + CauseReport.stackText(c, shown: shown) + ", "
            + UntrustedText.neutralise(CauseReport.releaseText(c), limit: Self.uaLimit * 2) + ", "
            + CauseReport.iosText(c) + "; fix: " + CauseReport.fixText(c, shown: shown)
    }

    /// A share as a percentage with at most three decimals and no trailing zeros: `1.987%`,
    /// `0.1%`.
    static func percent(_ share: Double) -> String {
        ShareText.trimmed(share)
    }

    /// An hour's share or the threshold, as finely as the threshold needs and never reading as
    /// the threshold when it is not (``ShareText/trimmed(_:against:)``).
    func share(_ value: Double) -> String {
        ShareText.trimmed(value, against: notification.threshold)
    }
}
