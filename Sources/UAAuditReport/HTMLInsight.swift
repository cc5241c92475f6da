/// The HTML page's "What it costs, who is split, what changed" section: per hour, what the
/// summary, `explain` and the messages say — the alert class's 401 and 403 responses and its
/// most requested path, the split clients, and the drift against the baseline.
enum HTMLInsight {
    static func section(_ report: Report) -> String {
        let alert = report.rules.alertClass
        let hours = report.hours.filter {
            $0.impact?[alert] != nil || $0.topPaths?.isEmpty == false || $0.clients != nil || $0.drift != nil
        }
        guard !hours.isEmpty else { return "" }
        let a = HTMLText.escape(alert)
        var html = "<section id=\"insight\">\n<h2>What it costs, who is split, what changed</h2>\n<table>\n"
        html += "<thead><tr><th>hour</th><th>\(a)</th><th>got 403</th><th>got 401</th><th>top path</th>"
        html += "<th>split clients</th><th>drift</th></tr></thead>\n<tbody>\n"
        for hour in hours {
            let status = hour.impact?[alert]
            html += "<tr\(hour.alerted ? " class=\"alert\"" : "") data-hour=\"\(HTMLText.escape(hour.hour))\">"
            html += "<td>\(HTMLText.escape(Report.shortHour(hour.hour)))</td>"
            html += "<td data-field=\"count\">\(hour.classes[alert] ?? 0)</td>"
            html += "<td data-field=\"403\">\(status.map { String($0.s403) } ?? "")</td>"
            html += "<td data-field=\"401\">\(status.map { String($0.s401) } ?? "")</td>"
            let path = hour.topPaths?.first.map {
                "<code>\(HTMLText.escape($0.path))</code> \($0.count) (\($0.rejected) refused)"
            }
            html += "<td data-field=\"path\">\(path ?? "")</td>"
            html += "<td data-field=\"split\">\(hour.clients.map(split) ?? "")</td>"
            html += "<td data-field=\"drift\">\(hour.drift.map(drift) ?? "")</td></tr>\n"
        }
        html += "</tbody></table>\n<p class=\"note\">Split clients: clients seen in the hour with an app class and "
        html += "with \(a). Drift: UA families new against the hours before, and alerts for them.</p>\n</section>\n"
        return html
    }

    /// `3 of 40 (7.5%) by $remote_addr`, `about` when sampled.
    static func split(_ c: Report.ClientsEntry) -> String {
        HTMLText.escape(
            "\(c.exact ? "" : "about ")\(c.split) of \(c.app) (\(InsightReport.percent(c.splitShare))) by \(c.key)")
    }

    /// The drift's alert reasons, or its new families, or nothing new.
    static func drift(_ d: Report.DriftEntry) -> String {
        if d.alert { return "<strong>alert</strong>: " + d.reasons.map(HTMLText.escape).joined(separator: "; ") }
        if d.newFamilies.isEmpty { return d.baselineHours == 0 ? "no baseline" : "nothing new" }
        let listed = d.newFamilies.prefix(3).map { "<code>\(HTMLText.escape($0.family))</code> \($0.count)" }
        return "new: " + listed.joined(separator: ", ")
    }
}
