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
            dom.contains("<title>uaaudit report: 2 hours, 2024-03-31 23:00+08:00 to 2024-04-01 00:00+08:00</title>"))
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
                    + "<td data-field=\"share\">9.615%</td><td></td></tr>"))
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
        #expect(dom.contains(">threshold 0.100%</text>"))
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
