import Foundation
import Testing

/// `--html` rendered by Debian's headless Chromium: the page shows the report's numbers and
/// charts, logs nothing on the console (its Content-Security-Policy would report any fetch or
/// script), and hostile UAs stay text.
@Suite struct HTMLRenderingTests {
    static func chromium() -> String? {
        ExternalTool.find(.chromium, test: "the HTML rendering test")
    }

    struct Rendered {
        var dom: String
        /// What the page wrote on the console (errors, CSP violations), one message a line.
        var console: [String]
    }

    /// Opens `file` in headless Chromium and returns the DOM after load, and the console.
    static func render(_ chromium: String, _ file: String, extra: [String] = []) throws -> Rendered {
        let profile = try Scratch()
        let result = try ExternalTool.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(profile.url.path)",
                "--enable-logging=stderr", "--v=0",
            ] + extra + ["--dump-dom", "file://\(file)"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let console = result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Rendered(dom: result.stdout, console: console)
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test(.requires(.chromium)) func theSampleReportShowsItsNumbersAndChartsWithoutConsoleMessages() throws {
        guard let chromium = Self.chromium() else { return }
        let dir = try Scratch()
        let html = dir.path("report.html")
        let scan = try Tool.run(
            ["scan", "-q", "--html", html, "ua_log.log"], directory: Tool.repoRoot.appendingPathComponent("SampleLogs"))
        #expect(scan.status == 0)
        let page = try Self.render(chromium, html)
        #expect(page.console == [])
        let dom = page.dom
        #expect(
            dom.contains("<title>uaaudit report: 2 hours, 2024-03-31 23:00+08:00 to 2024-04-01 01:00+08:00</title>"))
        #expect(
            dom.contains(
                "<div class=\"card\" id=\"total-requests\"><div class=\"label\">Requests</div><div class=\"value\">104</div>"
            ))
        #expect(dom.contains("<div class=\"value\">6.731%</div><div class=\"note\">7 requests</div>"))
        #expect(dom.contains("<div class=\"value\">0 of 2</div>"))
        #expect(
            dom.contains(
                "<tr data-hour=\"2024-03-31T23:00:00+08:00\"><td>2024-03-31 23:00+08:00</td><td data-field=\"requests\">52</td>"
                    + "<td data-field=\"webview\">14</td><td data-field=\"urlsession\">24</td>"
                    + "<td data-field=\"inconsistent\">5</td><td data-field=\"other\">4</td><td data-field=\"missing\">5</td>"
                    + "<td data-field=\"share\">9.615%</td><td data-field=\"alert\"></td></tr>"))
        #expect(dom.contains("<td data-field=\"share\">3.846%</td>"))
        #expect(
            dom.contains(
                "<td data-field=\"count\">2</td><td><code>YourSDK/1.0 com.apple.CFNetwork/1494.0.7</code></td>"))
        // Two hours: two share bars (pale: under 100 requests) and two stacks of five classes.
        #expect(Self.occurrences(of: "<svg ", in: dom) == 2)
        #expect(Self.occurrences(of: "<rect class=\"bar quiet\"", in: dom) == 2)
        #expect(Self.occurrences(of: "<g class=\"stack\"", in: dom) == 2)
        #expect(Self.occurrences(of: "<rect fill=", in: dom) == 10)
        #expect(dom.contains("<line class=\"threshold\""))
        // The threshold is named in the legend, not on the chart, where it covered bars; the
        // legend names every kind of bar.
        #expect(!dom.contains("threshold-label"))
        #expect(
            dom.contains(
                "<p class=\"legend\" id=\"share-legend\"><span><i style=\"background:#d62728\"></i>over the threshold</span> "
                    + "<span><i style=\"background:#4a78b5\"></i>at or below the threshold</span> "
                    + "<span><i style=\"background:#b9cbe3\"></i>fewer than 100 requests (never alerts)</span> "
                    + "<span><i class=\"dash\"></i>threshold 0.100%</span></p>"))
        // Cost, split clients and drift, as the summary and explain give them.
        #expect(
            dom.contains(
                "<tr data-hour=\"2024-03-31T23:00:00+08:00\"><td>2024-03-31 23:00+08:00</td><td data-field=\"count\">5</td>"
                    + "<td data-field=\"403\">1</td><td data-field=\"401\">0</td>"
                    + "<td data-field=\"path\"><code>/api/v1/feed</code> 2 (0 refused)</td>"
                    + "<td data-field=\"split\">1 of 1 (100%) by $remote_addr</td><td data-field=\"drift\">no baseline</td></tr>"))
        #expect(dom.contains("<td data-field=\"drift\">new: <code>curl/#.#.#</code> 3, "))
        #expect(
            dom.contains(
                "<div class=\"value\">0 of 2</div><div class=\"note\">above 0.100% with at least 100 requests: 0; UA drift: 0</div>"))
        // Two hours: a label under each, at 23:00 and 00:00, and the date where it changes.
        #expect(Self.occurrences(of: "<text class=\"hour\"", in: dom) == 4)
        #expect(Self.occurrences(of: "<text class=\"date\"", in: dom) == 4)
    }

    /// A week of hours starting at 05:00: one label a day, at 00:00 (never every 14 hours at
    /// odd places), the same under both charts.
    @Test(.requires(.chromium)) func aWeekPageHasALabelEachDayAtMidnight() throws {
        guard let chromium = Self.chromium() else { return }
        let dir = try Scratch()
        var lines: [String] = []
        for h in 0..<168 {
            let day = 23 + (h + 5) / 24
            let hour = (h + 5) % 24
            let dd = day > 30 ? String(format: "%02d/Dec", day - 30) : "\(day)/Nov"
            lines.append(Lines.uaLog(time: "\(dd)/2026:\(String(format: "%02d", hour)):10:00 +0000", ua: Lines.urlsession))
        }
        let log = try dir.write("week.log", lines.joined(separator: "\n") + "\n")
        let html = dir.path("week.html")
        #expect(try Tool.run(["scan", "-q", "--html", html, log]).status == 0)
        let page = try Self.render(chromium, html)
        #expect(page.console == [])
        let hours = page.dom.components(separatedBy: "<text class=\"hour\"").dropFirst().map {
            String($0.split(separator: ">", maxSplits: 1)[1].prefix(5))
        }
        #expect(hours == Array(repeating: "00:00", count: 14))
        #expect(Self.occurrences(of: ">2026-11-24</text>", in: page.dom) == 2)
        #expect(Self.occurrences(of: ">2026-11-30</text>", in: page.dom) == 2)
        #expect(!page.dom.contains(">2026-11-23</text>"))
    }

    /// A run's page: its totals cover the state's hours, its inputs table what this run read,
    /// and the page says so instead of "N of N lines" beside a table of other counts.
    @Test(.requires(.chromium)) func aRunPageSaysItsFiguresCoverTheStatesHours() throws {
        guard let chromium = Self.chromium() else { return }
        let h = try RunHarness()
        try h.append(150, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z").status == 0)
        try h.append(4, hour: 11)
        let html = h.dir.path("run.html")
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: ["--html", html]).status == 0)
        let page = try Self.render(chromium, html)
        #expect(page.console == [])
        #expect(
            page.dom.contains(
                "<div class=\"value\">154</div><div class=\"note\">in the 2 hours the state keeps</div>"))
        #expect(!page.dom.contains("of 154 lines"))
        #expect(page.dom.contains("<p class=\"note\">What this run read; the figures above cover every hour the state keeps.</p>"))
        #expect(page.dom.contains("<td>4 lines</td>"))
    }

    @Test(.requires(.chromium)) func hostileUserAgentsStayText() throws {
        guard let chromium = Self.chromium() else { return }
        let dir = try Scratch()
        var lines = (0..<200).map { _ in Lines.uaLog(ua: Lines.urlsession) }
        lines.append(Lines.uaLog(ua: #"<script>alert(1)</script> com.apple.CFNetwork"#))
        lines.append(Lines.uaLog(ua: #"\x22><img src=x onerror=alert(1)> com.apple.CFNetwork"#))
        lines.append(Lines.uaLog(ua: #"</code></td></tr></table><iframe src=//evil> com.apple.CFNetwork"#))
        lines.append(#"<svg onload=alert(1)> \x1B[2J not a log line"#)
        let log = try dir.write("access.log", lines.joined(separator: "\n") + "\n")
        let html = dir.path("report.html")
        #expect(try Tool.run(["scan", "-q", "--html", html, log]).status == 0)
        let page = try Self.render(chromium, html)
        #expect(page.console == [])
        let dom = page.dom
        // An element or an event attribute would serialize as `<img` or `onerror="`; as text, `&lt;img`.
        for element in ["<script", "<img", "<iframe", "onload=\"", "onerror=\""] {
            #expect(Self.occurrences(of: element, in: dom) == 0, "\(element)")
        }
        #expect(Self.occurrences(of: "<svg ", in: dom) == 2)
        #expect(dom.contains("<code>&lt;script&gt;alert(1)&lt;/script&gt; com.apple.CFNetwork</code>"))
        #expect(dom.contains("<code>\"&gt;&lt;img src=x onerror=alert(1)&gt; com.apple.CFNetwork</code>"))
        #expect(
            dom.contains(
                "<code>&lt;/code&gt;&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;iframe src=//evil&gt; com.apple.CFNetwork</code>"
            ))
        #expect(dom.contains("<code>&lt;svg onload=alert(1)&gt; \\x1B[2J not a log line</code>"))
        // The hour with the three hostile UAs is over the threshold: its own list is shown too.
        #expect(dom.contains("<summary>2026-11-29 17:00+08:00: 1.478% of 203 requests</summary>"))
    }

    @Test(.requires(.chromium)) func theScreenshotIsAPNGOfTheWindowSize() throws {
        guard let chromium = Self.chromium() else { return }
        let dir = try Scratch()
        let html = dir.path("report.html")
        let png = dir.path("report.png")
        let scan = try Tool.run(
            ["scan", "-q", "--html", html, "ua_log.log"], directory: Tool.repoRoot.appendingPathComponent("SampleLogs"))
        #expect(scan.status == 0)
        let profile = try Scratch()
        let result = try ExternalTool.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(profile.url.path)",
                "--hide-scrollbars", "--window-size=1000,1400", "--screenshot=\(png)", "file://\(html)",
            ])
        #expect(result.status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        try #require(bytes.count > 24)
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        #expect(bigEndian(16) == 1000)
        #expect(bigEndian(20) == 1400)
        // A blank page compresses to a few kilobytes; the charts and tables do not.
        #expect(bytes.count > 30_000)
    }
}
