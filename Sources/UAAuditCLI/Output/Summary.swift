import UAAuditReport

/// The human summary of a report, for an 80-column terminal.
///
/// A row per hour (hour, requests, per-class counts, alert share, `!` where its share alerts,
/// `d` where a drift alert fired, `~`
/// where `run` has not closed it yet),
/// then totals, the top alert-class UAs and the malformed lines. Text from the log is escaped.
/// With an ANSI ``Palette`` (stdout is a terminal), headings are bold and alert hours red;
/// the colour codes are added after padding, so the columns stay where they are.
enum Summary {
    static func render(_ report: Report, width: Int = 80, palette: Palette = .plain) -> String {
        let order = report.classNames
        let alert = report.rules.alertClass
        // `2026-11-29 17:00+08:00` is 22; the right-aligned counts keep a space before them.
        let hourWidth = 22
        // 8 columns, or one more than the longest count (a busy host's day passes 10^9
        // requests): numbers never run into one another.
        let rows = report.hours.map { ($0.requests, $0.classes) } + [(report.totals.requests, report.totals.classes)]
        let numberWidth = max(8, rows.map { String($0.0).count + 1 }.max() ?? 0)
        func widest(_ names: [String]) -> Int {
            max(8, rows.flatMap { row in names.map { String(row.1[$0] ?? 0).count + 1 } }.max() ?? 0)
        }
        // Shares with the decimals the threshold needs (``ShareText/decimals(for:)``; the marks
        // tell an hour over it): 7 columns (`0.172%` and a space) unless a finer threshold needs
        // more, then " !", " !d" or " d" where the hour alerts.
        let decimals = ShareText.decimals(for: report.threshold)
        // The hours' shares, then the total's.
        let shares = (report.hours.map(\.share) + [report.totals.share]).map { ShareText.fixed($0, decimals: decimals) }
        let shareWidth = max(7, (shares.map(\.count).max() ?? 0) + 1)
        // Show every class if they fit; otherwise only the alert class.
        let fixed = hourWidth + numberWidth + shareWidth + 3
        let columns = fixed + order.count * widest(order) <= width ? order : [alert]
        let classWidth = widest(columns)

        var out = ""
        var header = "hour".padded(hourWidth) + "requests".rightAligned(numberWidth)
        for name in columns { header += abbreviate(name, classWidth - 1).rightAligned(classWidth) }
        header += "share".rightAligned(shareWidth)
        out += palette.strong(header) + "\n"
        for (i, hour) in report.hours.enumerated() {
            var row = Report.shortHour(hour.hour).padded(hourWidth) + String(hour.requests).rightAligned(numberWidth)
            for name in columns { row += String(hour.classes[name] ?? 0).rightAligned(classWidth) }
            row += shares[i].rightAligned(shareWidth)
            if hour.alerted { row += " " + hour.alertMark } else if hour.closed == false { row += " ~" }
            out += (hour.alerted ? palette.alert(row) : row) + "\n"
        }
        if report.hours.isEmpty { out += "(no requests)\n" }
        let t = report.totals
        var totalRow = "total".padded(hourWidth) + String(t.requests).rightAligned(numberWidth)
        for name in columns { totalRow += String(t.classes[name] ?? 0).rightAligned(classWidth) }
        totalRow += shares[report.hours.count].rightAligned(shareWidth)
        out += palette.strong(totalRow) + "\n\n"

        if columns.count < order.count {
            out += wrapped("classes:", order.map { "\($0) \(t.classes[$0] ?? 0)" }, width: width)
        }
        var counts = ["requests \(t.requests)", "malformed \(t.malformed)"]
        if t.outOfScope > 0 { counts.append("out of scope \(t.outOfScope)") }
        if t.errors > 0 { counts.append("unclassifiable (match limit) \(t.errors)") }
        out += wrapped("lines \(t.lines):", counts, width: width)
        // Every hour that alerts (AlertPolicy: the share, or a drift alert), as the HTML page and
        // the messages count them; the drift part only when a drift alert fired.
        let breached = report.hours.filter(\.alert).count
        let drifted = report.hours.filter { $0.drift?.alert == true }.count
        let alerted = report.hours.filter(\.alerted).count
        let threshold = share(report.threshold.value, report)
        let condition = "is above \(threshold) with at least \(report.minRequests) requests"
        // Two lines of at most 80 columns (with the default class names) either way.
        let (breachLine, next) =
            drifted == 0
            ? ("alert hours (marked !): \(breached) of \(report.hours.count), where the \(alert) share", condition)
            : (
                "alert hours: \(alerted) of \(report.hours.count) "
                    + "(marked ! for the share: \(breached), d for drift: \(drifted)),",
                "where the \(alert) share \(condition)"
            )
        out += (alerted > 0 ? palette.alert(breachLine) : breachLine) + "\n"
        // A threshold typed with many digits, or a large --min-requests, wraps the condition.
        for line in TerminalText.wrapped(next, indent: "  ", width: width) { out += line + "\n" }
        let open = report.hours.filter { $0.closed == false }.count
        if open > 0 {
            out += "open hours (marked ~): \(open); an hour alerts only once it closes\n"
        }
        let backfill = report.hours.filter { $0.backfill == true }
        if !backfill.isEmpty {
            let sentence =
                "backfill hours: \(backfill.count) (\(backfill.filter(\.alerted).count) over), "
                + "already history_hours old when first read: reported, never alerted"
            // Continuation lines indented, as the alert-hours sentence above.
            for (i, line) in TerminalText.wrapped(sentence, indent: "  ", width: width).enumerated() {
                out += (i == 0 ? String(line.dropFirst(2)) : line) + "\n"
            }
        }
        out += InsightSummary.render(report, width: width, palette: palette)

        var top: [String: Int64] = [:]
        for hour in report.hours { for entry in hour.top { top[entry.ua, default: 0] += entry.count } }
        if !top.isEmpty {
            out += "\n" + palette.strong("top \(alert) UAs:") + "\n"
            let sorted = top.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
            for (ua, count) in sorted {
                // A count of 9 digits or more shortens the UA, never the line past `width`.
                out += topUARow(ua, count, width: width)
            }
        }
        if !report.malformedSamples.isEmpty {
            out +=
                "\n"
                + palette.strong("malformed lines (first \(min(3, report.malformedSamples.count)) of \(t.malformed)):")
            out += "\n"
            for sample in report.malformedSamples.prefix(3) {
                let place = "\(sample.path):\(sample.line): "
                out += "  " + TerminalText.escape(place + sample.text, limit: width - 4) + "\n"
                out += "    " + TerminalText.escape("(\(sample.reason))", limit: width - 6) + "\n"
            }
        }
        return out
    }

    /// A top UA's row: its count, then the UA escaped and cut to what the count leaves of
    /// `width` (a count of 9 digits or more shortens the UA, never the line past it).
    static func topUARow(_ ua: String, _ count: Int64, width: Int) -> String {
        let head = String(count).rightAligned(8) + "  "
        return head + TerminalText.escape(ua, limit: max(width - head.count - 2, 10)) + "\n"
    }

    /// A share as a percentage in at most 6 characters: `0.172%`, `12.35%`, `100.0%`.
    static func percent(_ share: Double) -> String {
        ShareText.fixed(share)
    }

    /// An hour's share or the threshold of `report`, as finely as the threshold needs and never
    /// reading as the threshold when it is not (``ShareText/fixed(_:against:)``).
    static func share(_ value: Double, _ report: Report) -> String {
        ShareText.fixed(value, against: report.threshold)
    }

    /// `head` and the items after it, separated by commas, in lines of at most `width`
    /// columns (the next ones indented by two); an item longer than a line is cut.
    static func wrapped(_ head: String, _ items: [String], width: Int) -> String {
        var out = ""
        var line = head
        for (i, item) in items.enumerated() {
            let piece = TerminalText.escape(item, limit: width - 4) + (i + 1 < items.count ? "," : "")
            if line.count + 1 + piece.count > width, line.count > 2 {
                out += line + "\n"
                line = " "
            }
            line += " " + piece
        }
        return out + line + "\n"
    }

    /// A class name in a column, escaped (a run's state may hold a class no rules file named).
    static func abbreviate(_ name: String, _ width: Int) -> String {
        let name = TerminalText.escape(name)
        return name.count <= width ? name : String(name.prefix(width))
    }
}
