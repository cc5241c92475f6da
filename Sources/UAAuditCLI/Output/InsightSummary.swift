import UAAuditAudit
import UAAuditReport

/// The summary's answers to the operator's next questions: what the alert class cost (its
/// statuses and paths), whether the same clients are split, and which UA families are new.
/// Text from the log is escaped and cut to the width.
enum InsightSummary {
    static func render(_ report: Report, width: Int, palette: Palette) -> String {
        let alert = report.rules.alertClass
        var out = ""
        if let cost = impact(report, alert: alert) { out += cost }
        out += clients(report, alert: alert, width: width)
        out += drift(report, width: width, palette: palette)
        out += coverage(report, width: width, palette: palette)
        out += paths(report, alert: alert, width: width, palette: palette)
        return out.isEmpty ? "" : "\n" + out
    }

    /// The alert class's statuses over every hour: "inconsistent 412, of which 397 got 403".
    static func impact(_ report: Report, alert: String) -> String? {
        var s = StatusCounts()
        var any = false
        for hour in report.hours {
            if let c = hour.impact?[alert] {
                s.add(c)
                any = true
            }
        }
        guard any else { return nil }
        return "\(alert) \(report.totals.classes[alert] ?? 0), of which \(s.s403) got 403 and \(s.s401) got 401\n"
            + "  (2xx \(s.s2xx), 3xx \(s.s3xx), 4xx \(s.s4xx), 5xx \(s.s5xx))\n"
    }

    /// The hour with the most split clients.
    static func clients(_ report: Report, alert: String, width: Int) -> String {
        let hours = report.hours.filter { $0.clients != nil }
        guard let first = hours.first?.clients else { return "" }
        var out =
            TerminalText.escape(
                "split clients (one \(first.key) with app and \(alert) UAs in an hour):", limit: width) + "\n"
        guard let worst = hours.max(by: { ($0.clients!.split, $1.hour) < ($1.clients!.split, $0.hour) }),
            let c = worst.clients, c.split > 0
        else { return out + "  none in \(hours.count) hour\(hours.count == 1 ? "" : "s")\n" }
        let withSplit = hours.filter { $0.clients!.split > 0 }.count
        // One line, or two where counts of millions make it longer than `width`.
        let sentence =
            "\(withSplit) of \(hours.count) hours; most in \(Report.shortHour(worst.hour)): "
            + "\(approx(c))\(c.split) of \(c.app) app clients (\(Summary.percent(c.splitShare)))"
        for line in TerminalText.wrapped(sentence, indent: "  ", width: width) { out += line + "\n" }
        if !c.examples.isEmpty {
            out += "  " + TerminalText.escape("e.g. " + c.examples.joined(separator: ", "), limit: width - 2) + "\n"
        }
        return out
    }

    static func approx(_ c: Report.ClientsEntry) -> String { c.exact ? "" : "~" }

    /// New UA families per hour, and the drift alerts.
    static func drift(_ report: Report, width: Int, palette: Palette) -> String {
        let hours = report.hours.filter { ($0.drift?.baselineHours ?? 0) > 0 }
        guard !hours.isEmpty else { return "" }
        var out = ""
        let new = hours.filter { !($0.drift?.newFamilies.isEmpty ?? true) }
        out += "new UA families (not in the hours before): \(new.count) of \(hours.count) hours\n"
        var listed: [(hour: String, family: Report.FamilyEntry)] = []
        for hour in new { for f in hour.drift!.newFamilies { listed.append((hour.hour, f)) } }
        listed.sort { $0.family.count != $1.family.count ? $0.family.count > $1.family.count : $0.hour < $1.hour }
        for (hour, f) in listed.prefix(3) {
            let head =
                "  \(Report.shortHour(hour).prefix(16)) \(TerminalText.escape(f.class, limit: 24)) \(f.count) (\(Summary.percent(f.share))) "
            out += head + TerminalText.escape(f.family, limit: max(width - head.count, 10)) + "\n"
        }
        for hour in report.hours where hour.drift?.alert == true {
            out += palette.alert("drift alert \(Report.shortHour(hour.hour)):") + "\n"
            for reason in hour.drift!.reasons {
                for line in TerminalText.wrapped(reason, indent: "  ", width: width) {
                    out += palette.alert(line) + "\n"
                }
            }
        }
        return out
    }

    /// The largest UA families no rule matched, over every hour, and the coverage warnings.
    static func coverage(_ report: Report, width: Int, palette: Palette) -> String {
        guard report.hours.contains(where: { $0.coverage != nil }) else { return "" }
        let (families, warnings) = Coverage.overall(report.hours)
        var out = "classed other (no rule matched), largest UA families:\n"
        for f in families.prefix(3) { out += familyRow(f, width: width) }
        for warning in warnings.prefix(3) {
            for line in TerminalText.wrapped("coverage: " + warning, indent: "  ", width: width) {
                out += palette.alert(line) + "\n"
            }
        }
        if warnings.count > 3 { out += "  (\(warnings.count - 3) more coverage warnings in the report)\n" }
        return out
    }

    /// One family row: requests, share, and the family escaped and cut to the width.
    static func familyRow(_ f: Report.OtherFamilyEntry, width: Int) -> String {
        let head = String(f.count).rightAligned(8) + " " + Summary.percent(f.share).rightAligned(7) + "  "
        return head + TerminalText.escape(f.family, limit: max(width - head.count, 10)) + "\n"
    }

    /// The alert class's most requested paths over every hour.
    static func paths(_ report: Report, alert: String, width: Int, palette: Palette) -> String {
        var total: [String: PathCount] = [:]
        for hour in report.hours {
            for p in hour.topPaths ?? [] {
                total[p.path, default: PathCount()].count += p.count
                total[p.path, default: PathCount()].rejected += p.rejected
            }
        }
        guard !total.isEmpty else { return "" }
        var out = "\n" + palette.strong("top \(alert) paths (requests, of which 401/403):") + "\n"
        let sorted = total.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
        }
        for (path, c) in sorted.prefix(5) { out += pathRow(path, c.count, c.rejected, width: width) }
        return out
    }

    /// One path row: requests, of which 401/403, and the path escaped and cut to the width.
    /// Counts of 8 digits or more push the rest right rather than touch.
    static func pathRow(_ path: String, _ count: Int64, _ rejected: Int64, width: Int) -> String {
        let head = String(count).rightAligned(8) + " " + String(rejected).rightAligned(7) + "  "
        return head + TerminalText.escape(path, limit: max(width - head.count, 10)) + "\n"
    }
}
