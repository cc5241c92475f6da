import UAAuditAudit
import UAAuditInput

/// The report as one self-contained HTML page: totals, a chart of the hourly alert-class
/// share against the threshold, the requests per hour stacked by class, the hours, the most
/// frequent alert-class UAs and the malformed lines.
///
/// Nothing is fetched: the styles are inline, the charts are inline SVG, there is no script,
/// and a Content-Security-Policy of `default-src 'none'` makes the browser refuse anything
/// else. Every text from the log goes through ``HTMLText/escape(_:)``.
package enum HTMLReport {
    package static func render(_ report: Report) -> String {
        let alert = HTMLText.escape(report.rules.alertClass)
        let t = report.totals
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="uaaudit (\(Report.schemaID))">
            <title>\(HTMLText.escape(title(report)))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header>
            <h1>User-Agent audit</h1>
            <p class="meta">\(HTMLText.escape(title(report))) · generated \(HTMLText.escape(report.generatedAt))</p>
            </header>

            """
        html += "<section id=\"totals\" class=\"cards\">\n"
        // A run's totals cover the hours its state keeps, not the lines this run read (its inputs table).
        let isRun = report.hours.contains { $0.closed != nil } || report.logs != nil
        html += card(
            "requests", "Requests", String(t.requests),
            isRun ? "in the \(report.hours.count) hours the state keeps" : "of \(t.lines) lines")
        html += card(
            "share", "\(alert) share", tableShare(t.share, report),
            "\(t.classes[report.rules.alertClass] ?? 0) requests")
        let alerted = report.hours.filter(\.alerted).count
        let drifted = report.hours.filter { $0.drift?.alert == true }.count
        html += card(
            "alert-hours", "Alert hours", "\(alerted) of \(report.hours.count)",
            "above \(share(report.threshold.value, report)) with at least \(report.minRequests) requests: \(t.alertHours.count)"
                + "; UA drift: \(drifted)",
            alert: alerted > 0)
        html += card("malformed", "Malformed lines", String(t.malformed), "not matching the log format")
        html += card("errors", "Unclassifiable", String(t.errors), "a pattern hit its match limit")
        html += card("out-of-scope", "Out of scope", String(t.outOfScope), "outside the rules' path scope")
        html += "</section>\n"

        html += "<section id=\"share-chart\">\n<h2>Hourly \(alert) share against the threshold</h2>\n"
        html += report.hours.isEmpty ? "<p>No requests.</p>\n" : HTMLCharts.shareChart(report)
        html +=
            "<p class=\"legend\" id=\"share-legend\"><span><i style=\"background:#d62728\"></i>over the threshold</span> "
        html += "<span><i style=\"background:#4a78b5\"></i>at or below the threshold</span> "
        html +=
            "<span><i style=\"background:#b9cbe3\"></i>fewer than \(report.minRequests) requests (never alerts)</span> "
        html +=
            "<span><i class=\"dash\"></i>threshold \(share(report.threshold.value, report))</span></p>\n</section>\n"
        html += "<section id=\"class-chart\">\n<h2>Requests per hour by class</h2>\n"
        html += report.hours.isEmpty ? "<p>No requests.</p>\n" : HTMLCharts.classChart(report)
        html += "<p class=\"legend\">"
        for (name, colour) in HTMLCharts.colours(report) {
            html += "<span><i style=\"background:\(colour)\"></i>\(HTMLText.escape(name))</span> "
        }
        html += "</p>\n</section>\n"
        html += hoursTable(report)
        html += HTMLInsight.section(report)
        html += HTMLCauses.section(report)
        html += topSection(report)
        html += coverageSection(report)
        html += details(report)
        html += "</body>\n</html>\n"
        return html
    }

    /// "uaaudit report: 2 hours, 2024-03-31 23:00+08:00 to 2024-04-01 01:00+08:00": from the
    /// first hour's start to the last hour's end (a 1-hour page is "00:00 to 01:00").
    static func title(_ report: Report) -> String {
        guard let first = report.hours.first, let last = report.hours.last else { return "uaaudit report" }
        let hours = report.hours.count == 1 ? "1 hour" : "\(report.hours.count) hours"
        let end = HourKey(iso8601: last.hour).map {
            HourKey(localHour: $0.localHour + 1, offsetMinutes: $0.offsetMinutes).iso8601
        }
        return
            "uaaudit report: \(hours), \(Report.shortHour(first.hour)) to \(Report.shortHour(end ?? last.hour))"
    }

    private static func card(_ id: String, _ label: String, _ value: String, _ note: String, alert: Bool = false)
        -> String
    {
        "<div class=\"card\(alert ? " alert" : "")\" id=\"total-\(id)\"><div class=\"label\">\(label)</div>"
            + "<div class=\"value\">\(HTMLText.escape(value))</div><div class=\"note\">\(HTMLText.escape(note))</div></div>\n"
    }

    /// The hours table's `closed` cell of a run's hour: an hour closed without every log read,
    /// or too old when first read to be alerted, says so, as the text report does.
    static func closedText(_ hour: Report.HourEntry) -> String {
        guard hour.closed == true else { return "no" }
        var notes: [String] = []
        if hour.incomplete == true { notes.append("incomplete: a log was unreadable") }
        if hour.backfill == true { notes.append("backfill: never alerted") }
        return notes.isEmpty ? "yes" : "yes (" + notes.joined(separator: "; ") + ")"
    }

    private static func hoursTable(_ report: Report) -> String {
        let names = report.classNames
        let showErrors = report.totals.errors > 0
        let isRun = report.hours.contains { $0.closed != nil }
        var html = "<section id=\"hours\">\n<h2>Hours</h2>\n<table>\n<thead><tr><th>hour</th><th>requests</th>"
        for name in names { html += "<th>\(HTMLText.escape(name))</th>" }
        if showErrors { html += "<th>errors</th>" }
        html += "<th>share</th><th>alert</th>"
        if isRun { html += "<th>closed</th><th>late</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for hour in report.hours {
            html += "<tr\(hour.alerted ? " class=\"alert\"" : "") data-hour=\"\(HTMLText.escape(hour.hour))\">"
            html += "<td>\(HTMLText.escape(Report.shortHour(hour.hour)))</td>"
            html += "<td data-field=\"requests\">\(hour.requests)</td>"
            for name in names {
                html += "<td data-field=\"\(HTMLText.escape(name))\">\(hour.classes[name] ?? 0)</td>"
            }
            if showErrors { html += "<td data-field=\"errors\">\(hour.errors)</td>" }
            html +=
                "<td data-field=\"share\">\(tableShare(hour.share, report))</td><td data-field=\"alert\">\(hour.alertMark)</td>"
            if isRun { html += "<td>\(closedText(hour))</td><td>\(hour.late ?? 0)</td>" }
            html += "</tr>\n"
        }
        let t = report.totals
        html += "</tbody>\n<tfoot><tr data-hour=\"total\"><th>total</th><td data-field=\"requests\">\(t.requests)</td>"
        for name in names { html += "<td data-field=\"\(HTMLText.escape(name))\">\(t.classes[name] ?? 0)</td>" }
        if showErrors { html += "<td data-field=\"errors\">\(t.errors)</td>" }
        html +=
            "<td data-field=\"share\">\(tableShare(t.share, report))</td><td>\(report.hours.contains(where: \.alerted) ? "!" : "")</td>"
        if isRun { html += "<td></td><td>\(report.hours.reduce(0) { $0 + ($1.late ?? 0) })</td>" }
        return html + "</tr></tfoot>\n</table>\n</section>\n"
    }

    /// The alert-class UAs over all hours (each hour's top list summed), then each alert hour's own.
    private static func topSection(_ report: Report) -> String {
        let alert = HTMLText.escape(report.rules.alertClass)
        var sums: [String: Int64] = [:]
        for hour in report.hours { for entry in hour.top { sums[entry.ua, default: 0] += entry.count } }
        var html = "<section id=\"top\">\n<h2>Most frequent \(alert) User-Agents</h2>\n"
        guard !sums.isEmpty else { return html + "<p>None.</p>\n</section>\n" }
        let sorted = sums.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        html += uaTable(sorted.prefix(25).map { ($0.key, $0.value) })
        if report.hours.contains(where: \.topApproximate) {
            html += "<p class=\"note\">Some hours had more distinct UAs than uaaudit tracks; counts may be short.</p>\n"
        }
        for hour in report.hours where hour.alert && !hour.top.isEmpty {
            html += "<details><summary>\(HTMLText.escape(Report.shortHour(hour.hour))): "
            html += "\(share(hour.share, report)) of \(hour.requests) requests</summary>\n"
            html += uaTable(hour.top.map { ($0.ua, $0.count) }) + "</details>\n"
        }
        return html + "</section>\n"
    }

    static func uaTable(_ rows: [(ua: String, count: Int64)]) -> String {
        var html = "<table class=\"uas\"><thead><tr><th>count</th><th>User-Agent</th></tr></thead><tbody>\n"
        for row in rows {
            html +=
                "<tr><td data-field=\"count\">\(row.count)</td><td><code>\(HTMLText.escape(row.ua))</code></td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// Malformed lines, gaps, inputs and rules.
    private static func details(_ report: Report) -> String {
        var html = ""
        if !report.malformedSamples.isEmpty {
            html += "<section id=\"malformed\">\n<h2>Malformed lines (first \(report.malformedSamples.count) of "
            html += "\(report.totals.malformed))</h2>\n<table><tbody>\n"
            for sample in report.malformedSamples {
                html += "<tr><td>\(HTMLText.escape("\(sample.path):\(sample.line)"))</td>"
                html +=
                    "<td>\(HTMLText.escape(sample.reason))</td><td><code>\(HTMLText.escape(sample.text))</code></td></tr>\n"
            }
            html += "</tbody></table>\n</section>\n"
        }
        if let gaps = report.gaps, !gaps.isEmpty {
            html += "<section id=\"gaps\">\n<h2>Gaps: bytes that could not be read</h2>\n<table><tbody>\n"
            for gap in gaps {
                let range = "from byte \(gap.fromOffset) to " + (gap.toOffset.map { "byte \($0)" } ?? "unknown")
                html += "<tr><td>\(HTMLText.escape(gap.file))</td><td>\(HTMLText.escape(range))</td>"
                html += "<td>\(HTMLText.escape(gap.reason))</td></tr>\n"
            }
            html += "</tbody></table>\n</section>\n"
        }
        let isRun = report.hours.contains { $0.closed != nil } || report.logs != nil
        html += "<section id=\"inputs\">\n<h2>Inputs and rules</h2>\n"
        if isRun {
            html += "<p class=\"note\">What this run read; the figures above cover every hour the state keeps.</p>\n"
        }
        html += "<table><tbody>\n"
        for source in report.sources {
            html += "<tr><td><code>\(HTMLText.escape(source.path))</code></td><td>\(source.lines) lines</td>"
            html += "<td>\(source.bytes) bytes</td><td>\(HTMLText.escape(source.error ?? ""))</td></tr>\n"
        }
        html += "</tbody></table>\n<p>Format <code>\(HTMLText.escape(report.format.name ?? "custom"))</code>: "
        html += "<code>\(HTMLText.escape(report.format.string))</code></p>\n<table><tbody>\n"
        for name in report.rules.order {
            let patterns = (report.rules.patterns[name] ?? []).map(HTMLText.escape).joined(separator: "<br>")
            html += "<tr><td>\(HTMLText.escape(name))</td><td><code>\(patterns)</code></td></tr>\n"
        }
        if let scope = report.rules.scope {
            html += "<tr><td>scope</td><td><code>\(HTMLText.escape(scope))</code></td></tr>\n"
        }
        return html + "</tbody></table>\n</section>\n"
    }

    /// A share as a percentage, as the summary shows it: `0.172%`, `12.35%`, `100.0%`.
    package static func percent(_ share: Double) -> String {
        ShareText.fixed(share)
    }

    /// An hour's share or the threshold of `report` in a sentence, as the summary shows them
    /// (``ShareText/fixed(_:against:)``).
    static func share(_ value: Double, _ report: Report) -> String {
        ShareText.fixed(value, against: report.threshold)
    }

    /// A share in a table, with the decimals the threshold of `report` needs, as the summary's
    /// table (the alert column tells an hour over it).
    static func tableShare(_ value: Double, _ report: Report) -> String {
        ShareText.fixed(value, decimals: ShareText.decimals(for: report.threshold))
    }

    static let style = """

        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
        color:#1d1d1f;background:#fff;margin:24px auto;max-width:1000px;padding:0 16px}
        h1{font-size:22px;margin:0}h2{font-size:16px;margin:28px 0 8px}.meta,.note{color:#666}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px}
        .card{border:1px solid #ddd;border-radius:6px;padding:8px 12px}.card .label{color:#555;font-size:12px}.card .value{font-size:22px;font-weight:600}
        .card .note{font-size:11px}.card.alert{border-color:#d62728}.card.alert .value{color:#d62728}
        svg{width:100%;height:auto;display:block}svg text{font-size:11px;fill:#555}line.tick{stroke:#999}
        .grid{stroke:#e5e5e5}.bar{fill:#4a78b5}.bar.alert{fill:#d62728}.bar.quiet{fill:#b9cbe3}
        .threshold{stroke:#d62728;stroke-width:1.5;stroke-dasharray:6 4}
        .legend span{margin-right:12px;white-space:nowrap}.legend i{display:inline-block;width:10px;height:10px;
        margin-right:4px;border-radius:2px}.legend i.dash{width:18px;height:0;border-top:2px dashed #d62728;
        border-radius:0;vertical-align:middle}
        table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
        th,td{border-bottom:1px solid #eee;padding:3px 8px;text-align:right;vertical-align:top}
        th:first-child,td:first-child{text-align:left}tr.alert td{background:#fdecea;color:#a11}
        table.uas td:last-child,table.uas th:last-child,#malformed td,#inputs td,#gaps td,#insight td:nth-child(n+5),#insight th:nth-child(n+5){text-align:left}
        table.uas td:first-child{text-align:right;width:4em}#malformed td:not(:last-child){white-space:nowrap}
        code{font:12px ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
        details{margin:6px 0}summary{cursor:pointer}.warnings li{color:#a11}

        """
}
