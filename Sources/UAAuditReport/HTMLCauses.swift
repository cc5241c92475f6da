/// The HTML page's "Why: which code sends them" section: per hour with alert-class families,
/// its three largest with their stack, release, iOS versions and fix (``CauseReport``), as
/// `explain` shows them. Text from the log is escaped.
enum HTMLCauses {
    static let perHour = 3

    static func section(_ report: Report) -> String {
        let hours = report.hours.filter { $0.causes?.isEmpty == false }
        guard !hours.isEmpty else { return "" }
        let a = HTMLText.escape(report.rules.alertClass)
        var html = "<section id=\"causes\">\n<h2>Why: which code sends the \(a) UAs</h2>\n<table>\n"
        html += "<thead><tr><th>hour</th><th>family</th><th>requests</th><th>stack</th><th>release</th>"
        html += "<th>iOS</th><th>fix</th></tr></thead>\n<tbody>\n"
        for hour in hours {
            for c in (hour.causes ?? []).prefix(perHour) {
                html += "<tr\(hour.alerted ? " class=\"alert\"" : "") data-hour=\"\(HTMLText.escape(hour.hour))\">"
                html += "<td>\(HTMLText.escape(Report.shortHour(hour.hour)))</td>"
                html += "<td data-field=\"family\"><code>\(HTMLText.escape(c.family))</code></td>"
                html += "<td data-field=\"requests\">\(c.requests)</td>"
                html += "<td data-field=\"stack\">\(HTMLText.escape(CauseReport.stackText(c)))</td>"
                html += "<td data-field=\"release\">\(HTMLText.escape(CauseReport.releaseText(c)))</td>"
                html += "<td data-field=\"ios\">\(HTMLText.escape(CauseReport.iosText(c)))</td>"
                html += "<td data-field=\"fix\">\(HTMLText.escape(c.fix))</td></tr>\n"
            }
        }
        html += "</tbody></table>\n<p class=\"note\">Release: the app version the family's split clients are on, "
        html += "against the app's other clients (docs/insight.md: Causes).</p>\n</section>\n"
        return html
    }
}
