extension HTMLReport {
    /// The largest UA families no rule matched (each hour's list summed) and the coverage warnings.
    static func coverageSection(_ report: Report) -> String {
        guard report.hours.contains(where: { $0.coverage != nil }) else { return "" }
        let (families, warnings) = Coverage.overall(report.hours)
        var html = "<section id=\"coverage\">\n<h2>Classed other: the largest UA families no rule matched</h2>\n"
        if !warnings.isEmpty {
            html += "<ul class=\"warnings\">\n"
            for warning in warnings { html += "<li>\(HTMLText.escape(warning))</li>\n" }
            html += "</ul>\n"
        }
        html += uaTable(families.map { ($0.family, $0.count) })
        html += "<p class=\"note\">A family is a UA with its digits collapsed to #. A family that names the rules' "
        html += "app, or carries over \(percent(Coverage.warnShare)) of an hour, is warned about: check it with "
        html += "<code>uaaudit classify</code>.</p>\n"
        return html + "</section>\n"
    }
}
