import UAAuditAudit
import UAAuditReport

/// One hour on one readable page (80 columns): the share, what it cost, who is split, what is new.
/// Text from the log is escaped.
enum ExplainPage {
    static func render(_ hour: Report.HourEntry, of report: Report, source: String, palette: Palette, width: Int = 80)
        -> String
    {
        let alert = report.rules.alertClass
        let order = report.classNames
        let alertCount = hour.classes[alert] ?? 0
        var out =
            palette.strong(TerminalText.escape("\(Report.shortHour(hour.hour))  (\(source))", limit: width)) + "\n\n"

        out += palette.strong("Share") + "\n"
        let threshold = Summary.share(report.threshold.value, report)
        var verdict = "\(alert) \(alertCount) of \(hour.requests) requests = \(Summary.share(hour.share, report)); "
        if hour.alert {
            verdict += "over \(threshold): ALERT"
        } else if hour.requests < report.minRequests {
            verdict += "under \(report.minRequests) requests: never alerts"
        } else {
            verdict += "not over \(threshold)"
        }
        // One line, or more where long counts and a fine threshold pass `width`.
        for line in TerminalText.wrapped(verdict, indent: "  ", width: width) {
            out += (hour.alert ? palette.alert(line) : line) + "\n"
        }
        out += wrap(order.map { "\($0) \(hour.classes[$0] ?? 0)" }, width: width)
        if hour.errors > 0 { out += "  unclassifiable (match limit): \(hour.errors)\n" }
        if hour.closed == false { out += "  (the hour is still open: more lines may come)\n" }
        if hour.backfill == true {
            out += "  (backfill: already history_hours old when first read; reported, never alerted)\n"
        }

        out += "\n" + palette.strong("What it cost") + "\n"
        if let impact = hour.impact {
            func counts(_ s: StatusCounts) -> [Int64] { [s.s2xx, s.s3xx, s.s4xx, s.s5xx, s.other, s.s401, s.s403] }
            // Each column 8 wide, or one more than its longest count: numbers never run
            // together, and only columns with such counts widen.
            let widths = (0..<7).map { i in
                max(8, impact.values.map { String(counts($0)[i]).count + 1 }.max() ?? 0)
            }
            // The columns in as few tables as keep every line within `width` (one, unless
            // counts of a trillion widen them), each with the class column.
            var tables: [[Int]] = [[]]
            var used = 15
            for i in 0..<7 {
                if used + widths[i] > width, !tables[tables.count - 1].isEmpty {
                    tables.append([])
                    used = 15
                }
                tables[tables.count - 1].append(i)
                used += widths[i]
            }
            let headings = ["2xx", "3xx", "4xx", "5xx", "other", "401", "403"]
            for columns in tables {
                out += "  " + "class".padded(13) + columns.map { headings[$0].rightAligned(widths[$0]) }.joined() + "\n"
                for name in [alert] + order.filter({ $0 != alert }) {
                    guard let s = impact[name], s.total > 0 else { continue }
                    let values = counts(s)
                    out += "  " + TerminalText.escape(name, limit: 12).padded(13)
                    out += columns.map { String(values[$0]).rightAligned(widths[$0]) }.joined() + "\n"
                }
            }
            if let s = impact[alert] {
                out += "  \(alert) \(alertCount), of which \(s.s403) got 403 and \(s.s401) got 401\n"
            }
        } else {
            out += "  (the log format has no $status)\n"
        }
        if let paths = hour.topPaths, !paths.isEmpty {
            out += "  top \(alert) paths" + (hour.topPathsApproximate == true ? " (approximate)" : "")
            out += ": requests, of which 401/403\n"
            for p in paths.prefix(5) { out += InsightSummary.pathRow(p.path, p.count, p.rejected, width: width) }
        }

        out += "\n" + palette.strong("Who is split") + "\n"
        if let c = hour.clients {
            let about = c.exact ? "" : "about "
            let split = "\(about)\(c.split) of \(about)\(c.app) app clients (\(Summary.percent(c.splitShare))) "
            for line in TerminalText.wrapped(split + "also sent \(alert) UAs", indent: "  ", width: width) {
                out += line + "\n"
            }
            out += "  clients with \(alert) UAs: \(about)\(c.alert)\n"
            out +=
                TerminalText.escape(
                    "  (clients by \(c.key); app classes \(c.appClasses.joined(separator: ", ")))", limit: width) + "\n"
            if !c.exact {
                let estimate =
                    "estimated from a \(c.sampleRate) sample of clients; split ± \(Int(c.splitError.rounded())) "
                    + "(one standard error)"
                for line in TerminalText.wrapped(estimate, indent: "  ", width: width) { out += line + "\n" }
            }
            if !c.examples.isEmpty {
                out += TerminalText.escape("  e.g. " + c.examples.joined(separator: ", "), limit: width) + "\n"
            }
        } else {
            out += "  (no client key: the format lacks it, or --client-key none)\n"
        }

        out += "\n" + palette.strong("What is new") + "\n"
        if let d = hour.drift {
            if d.baselineHours == 0 {
                out += "  (no earlier hours to compare with)\n"
            } else {
                out += "  against \(d.baselineHours) earlier hour\(d.baselineHours == 1 ? "" : "s"): "
                out += "\(d.newFamilies.count < 10 ? "\(d.newFamilies.count)" : "10+") new UA "
                out += "famil\(d.newFamilies.count == 1 ? "y" : "ies"), \(d.newRequests) requests"
                out += d.approximate ? " (approximate)\n" : "\n"
                for f in d.newFamilies.prefix(5) {
                    let head =
                        String(f.count).rightAligned(8) + " " + TerminalText.escape(f.class, limit: 24).padded(12) + " "
                    out += head + TerminalText.escape(f.family, limit: width - head.count) + "\n"
                }
            }
            let shares = d.appShares.map { s in
                "\(s.class) \(Summary.percent(s.share))"
                    + (s.baseline.map { " (baseline \(Summary.percent($0)))" } ?? "")
            }
            if !shares.isEmpty { out += wrap(shares, width: width) }
            for reason in d.reasons {
                for line in TerminalText.wrapped("drift alert: " + reason, indent: "  ", width: width) {
                    out += palette.alert(line) + "\n"
                }
            }
        } else {
            out += "  (drift is off: --baseline-hours 0)\n"
        }

        out += "\n" + palette.strong("What no rule matched") + "\n"
        if let c = hour.coverage {
            out += "  largest UA families classed other" + (c.approximate ? " (approximate)" : "") + ":\n"
            for f in c.otherFamilies.prefix(5) { out += InsightSummary.familyRow(f, width: width) }
            for warning in c.warnings {
                for line in TerminalText.wrapped("coverage: " + warning, indent: "  ", width: width) {
                    out += palette.alert(line) + "\n"
                }
            }
        } else {
            out += "  nothing: every request matched a rule\n"
        }

        if let causes = hour.causes, !causes.isEmpty {
            out += "\n" + palette.strong("Why: which code sends the \(alert) UAs") + "\n"
            out += whyRows(causes, width: width)
        }

        if !hour.top.isEmpty {
            out += "\n" + palette.strong("Top \(alert) UAs") + (hour.topApproximate ? " (approximate)" : "") + "\n"
            for entry in hour.top.prefix(5) { out += Summary.topUARow(entry.ua, entry.count, width: width) }
        }
        return out
    }

    /// The hour's causes, the five with the most requests: the family, its stack, the fix, the
    /// release and the iOS versions, each wrapped to `width` (text from the log escaped).
    static func whyRows(_ causes: [Report.CauseEntry], width: Int) -> String {
        var out = ""
        for c in causes.prefix(5) {
            let head = String(c.requests).rightAligned(8) + " "
            out += head + TerminalText.escape(c.family, limit: width - head.count) + "\n"
            let lines = [
                "stack: " + CauseReport.stackText(c),
                "release: " + CauseReport.releaseText(c),
                CauseReport.iosText(c) + "; first seen " + Report.shortHour(c.firstSeen),
                "fix: " + c.fix,
            ]
            for text in lines {
                for line in TerminalText.wrapped(text, indent: "           ", width: width) {
                    out += line + "\n"
                }
            }
        }
        return out
    }

    /// Items joined by ` · ` on indented lines of at most `width` columns.
    static func wrap(_ items: [String], width: Int) -> String {
        var out = ""
        var line = " "
        for item in items {
            let piece = TerminalText.escape(item, limit: width - 4)
            if line.count > 1, line.count + 3 + piece.count > width {
                out += line + "\n"
                line = " "
            }
            line += line.count > 1 ? " · " + piece : " " + piece
        }
        return line.count > 1 ? out + line + "\n" : out
    }
}
