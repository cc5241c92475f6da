import UAAuditAudit
import UAAuditInput

/// The inline SVG charts of the HTML report: the hourly alert-class share against the
/// threshold, and the requests per hour stacked by class. Hours are evenly spaced in report
/// order; every bar carries a `<title>` (the browser's tooltip) with its numbers.
enum HTMLCharts {
    static let width = 960.0
    static let height = 280.0
    static let left = 72.0
    static let right = 16.0
    static let top = 20.0
    static let bottom = 52.0
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    /// The colour of each class (and of `errors`), the alert class always red.
    static func colours(_ report: Report) -> [(name: String, colour: String)] {
        let palette = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#bcbd22"]
        var result: [(String, String)] = []
        var next = 0
        for name in report.rules.order {
            if name == report.rules.alertClass {
                result.append((name, "#d62728"))
            } else {
                result.append((name, palette[next % palette.count]))
                next += 1
            }
        }
        result.append(("other", report.rules.alertClass == "other" ? "#d62728" : "#c7c7c7"))
        result.append(("missing", report.rules.alertClass == "missing" ? "#d62728" : "#8c8c8c"))
        if report.totals.errors > 0 { result.append(("errors", "#3b3b3b")) }
        return result
    }

    static func shareChart(_ report: Report) -> String {
        let hours = report.hours
        let alert = HTMLText.escape(report.rules.alertClass)
        let highest = hours.map(\.share).max() ?? 0
        let step = niceStep(max(highest, report.threshold.value * 1.25, 0.000_01) / 4, integers: false)
        let yMax = step * 4
        func y(_ v: Double) -> Double { top + plotHeight * (1 - min(v, yMax) / yMax) }
        var svg = open(label: "hourly \(alert) share against the threshold")
        for i in 0...4 {
            let v = step * Double(i)
            svg += gridLine(y: y(v), label: tickPercent(v))
        }
        let slot = plotWidth / Double(max(hours.count, 1))
        let barWidth = max(1, slot * 0.7)
        for (i, hour) in hours.enumerated() {
            let x = left + slot * Double(i) + (slot - barWidth) / 2
            let kind = hour.alert ? "bar alert" : (hour.requests < report.minRequests ? "bar quiet" : "bar")
            let tip =
                "\(Report.shortHour(hour.hour)): \(HTMLReport.share(hour.share, report)) \(alert) of \(hour.requests) requests"
                + (hour.alert ? ", over the threshold" : "")
            svg +=
                "<rect class=\"\(kind)\" data-hour=\"\(HTMLText.escape(hour.hour))\" x=\"\(n(x))\" y=\"\(n(y(hour.share)))\" "
                + "width=\"\(n(barWidth))\" height=\"\(n(top + plotHeight - y(hour.share)))\">"
                + "<title>\(HTMLText.escape(tip))</title></rect>\n"
        }
        // The threshold is named in the legend under the chart: a label on the line would cover bars.
        let ty = y(report.threshold.value)
        svg +=
            "<line class=\"threshold\" x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(ty))\" y2=\"\(n(ty))\">"
            + "<title>threshold \(HTMLReport.share(report.threshold.value, report))</title></line>\n"
        svg += hourLabels(hours, slot: slot)
        return svg + "</svg>\n"
    }

    static func classChart(_ report: Report) -> String {
        let hours = report.hours
        let step = niceStep(Double(max(hours.map(\.requests).max() ?? 0, 4)) / 4, integers: true)
        let yMax = step * 4
        func y(_ v: Double) -> Double { top + plotHeight * (1 - v / yMax) }
        var svg = open(label: "requests per hour by class")
        for i in 0...4 {
            let v = step * Double(i)
            svg += gridLine(y: y(v), label: String(Int64(v)))
        }
        let slot = plotWidth / Double(max(hours.count, 1))
        let barWidth = max(1, slot * 0.7)
        let colours = colours(report)
        for (i, hour) in hours.enumerated() {
            let x = left + slot * Double(i) + (slot - barWidth) / 2
            var base = 0.0
            svg += "<g class=\"stack\" data-hour=\"\(HTMLText.escape(hour.hour))\">"
            for (name, colour) in colours {
                let count = name == "errors" ? hour.errors : hour.classes[name] ?? 0
                guard count > 0 else { continue }
                let y0 = y(base)
                base += Double(count)
                let y1 = y(base)
                svg +=
                    "<rect fill=\"\(colour)\" x=\"\(n(x))\" y=\"\(n(y1))\" width=\"\(n(barWidth))\" height=\"\(n(y0 - y1))\">"
                    + "<title>\(HTMLText.escape("\(Report.shortHour(hour.hour)): \(count) \(name)"))</title></rect>"
            }
            svg += "</g>\n"
        }
        svg += hourLabels(hours, slot: slot)
        return svg + "</svg>\n"
    }

    private static func open(label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" "
            + "aria-label=\"\(label)\">\n"
    }

    private static func gridLine(y: Double, label: String) -> String {
        "<line class=\"grid\" x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y))\" y2=\"\(n(y))\"/>"
            + "<text class=\"tick\" x=\"\(n(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(label)</text>\n"
    }

    /// Hours between two labels: the smallest of 1, 2, 3, 4, 6, 12 hours or 1, 2, 3, 7 days
    /// that gives at most 12 labels.
    static func labelStep(hours count: Int) -> Int {
        let steps = [1, 2, 3, 4, 6, 12, 24, 48, 72, 168]
        return steps.first { (count + $0 - 1) / $0 <= 12 } ?? 168 * ((count + 168 * 12 - 1) / (168 * 12))
    }

    /// A label under each bar whose local hour is a multiple of ``labelStep(hours:)`` (every
    /// 6 hours at 00:00, 06:00…; every day at 00:00), so ticks fall at regular, round places
    /// whatever hour the report starts at; the date under the first label of each day.
    static func hourLabels(_ hours: [Report.HourEntry], slot: Double) -> String {
        guard !hours.isEmpty else { return "" }
        let step = labelStep(hours: hours.count)
        var out = ""
        var lastDate = ""
        for (i, hour) in hours.enumerated() {
            let text = Array(hour.hour)
            guard text.count >= 16, let key = HourKey(iso8601: hour.hour), key.localHour % Int64(step) == 0 else {
                continue
            }
            let x = left + slot * (Double(i) + 0.5)
            let date = String(text[0..<10])
            out +=
                "<line class=\"tick\" x1=\"\(n(x))\" x2=\"\(n(x))\" y1=\"\(n(top + plotHeight))\" "
                + "y2=\"\(n(top + plotHeight + 4))\"/>"
                + "<text class=\"hour\" x=\"\(n(x))\" y=\"\(n(top + plotHeight + 16))\" text-anchor=\"middle\">"
                + "\(HTMLText.escape(String(text[11..<16])))</text>"
            if date != lastDate {
                out +=
                    "<text class=\"date\" x=\"\(n(x))\" y=\"\(n(top + plotHeight + 32))\" text-anchor=\"middle\">"
                    + "\(HTMLText.escape(date))</text>"
                lastDate = date
            }
            out += "\n"
        }
        return out
    }

    /// A round step (1, 2, 2.5 or 5 times a power of ten; whole numbers for counts) at least `raw`.
    static func niceStep(_ raw: Double, integers: Bool) -> Double {
        var scale = 1.0
        while scale * 10 <= raw { scale *= 10 }
        while scale > raw { scale /= 10 }
        let factors: [Double] = integers && scale < 10 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10]
        for f in factors where f * scale >= raw {
            let step = f * scale
            return integers ? max(1, step.rounded(.up)) : step
        }
        return 10 * scale
    }

    /// A tick's percentage with no trailing zeros: `0%`, `2.5%`, `0.025%`.
    static func tickPercent(_ share: Double) -> String {
        let scaled = Int64((share * 100 * 10_000).rounded())
        var fraction = String(scaled % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(scaled / 10_000)" + (fraction.isEmpty ? "" : "." + fraction) + "%"
    }

    /// A coordinate with one decimal.
    static func n(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
