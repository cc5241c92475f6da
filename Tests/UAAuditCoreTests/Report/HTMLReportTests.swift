import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct HTMLReportTests {
    @Test(
        arguments: [
            ("plain UA/1.0", "plain UA/1.0"),
            ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
            (#""><img src=x onerror=alert(1)>"#, "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
            ("a & b 'c'", "a &amp; b &#39;c&#39;"),
            ("\u{1B}[2J\u{7}\u{7F}\u{85}", #"\x1B[2J\x07\x7F\x85"#),
            ("abc\u{202E}fed", #"abc\u{202E}fed"#),
            ("alm\u{61C}x", #"alm\u{61C}x"#),
            ("中文 😀", "中文 😀"),
        ])
    func hostileTextBecomesInertText(text: String, escaped: String) {
        #expect(HTMLText.escape(text) == escaped)
    }

    /// A fine threshold shows as given in the page's legend, card and chart, and the shares
    /// in the hours table with as many decimals.
    @Test func aFineThresholdShowsAsGiven() throws {
        var report = try Self.smallReport()
        report.threshold = Threshold(parsing: "0.000001")!
        let html = HTMLReport.render(report)
        #expect(html.contains("<span><i class=\"dash\"></i>threshold 0.0001%</span>"))
        #expect(html.contains("above 0.0001% with at least"))
        #expect(html.contains("<title>threshold 0.0001%</title>"))
        let hour = try #require(report.hours.first)
        #expect(hour.share == 2.0 / 122)
        #expect(html.contains("<td data-field=\"share\">1.6393%</td>"))
        #expect(!HTMLReport.render(try Self.smallReport()).contains("0.0001%"))
    }

    /// A run's hours table says which closed hours were incomplete or backfill.
    @Test func closedHoursSayWhetherTheyWereIncompleteOrBackfill() throws {
        var report = try Self.smallReport()
        var hour = try #require(report.hours.first)
        hour.closed = true
        var hours = [hour, hour, hour, hour]
        hours[1].incomplete = true
        hours[2].backfill = true
        hours[3].closed = false
        #expect(
            hours.map(HTMLReport.closedText) == [
                "yes", "yes (incomplete: a log was unreadable)", "yes (backfill: never alerted)", "no",
            ])
        report.hours = [hours[2]]
        #expect(HTMLReport.render(report).contains("<td>yes (backfill: never alerted)</td><td>0</td>"))
    }

    static func smallReport() throws -> Report {
        let dir = try TempDirectory()
        let path = try dir.write("small.log", Array(ReportTests.smallLog().utf8))
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: 1)
        return ReportBuilder.build(
            Scanner(configuration: configuration).scan([path]), configuration: configuration,
            generatedAt: "2026-11-29T10:00:00Z")
    }

    /// The title runs from the first hour's start to the last hour's end: one hour is
    /// "17:00 to 18:00", never "17:00 to 17:00".
    @Test func theTitleEndsWhenTheLastHourEnds() throws {
        var report = try Self.smallReport()
        report.hours = [report.hours[0]]
        report.hours[0].hour = "2026-11-29T23:00:00+08:00"
        #expect(HTMLReport.title(report) == "uaaudit report: 1 hour, 2026-11-29 23:00+08:00 to 2026-11-30 00:00+08:00")
        report.hours[0].hour = "2026-11-29T17:00:00-09:30"
        #expect(HTMLReport.title(report) == "uaaudit report: 1 hour, 2026-11-29 17:00-09:30 to 2026-11-29 18:00-09:30")
    }

    @Test func thePageFetchesNothing() throws {
        let html = HTMLReport.render(try Self.smallReport())
        for reference in ["src=", "href=", "url(", "@import", "<link", "<script", "https:", "<iframe", "<object"] {
            #expect(!html.contains(reference), "\(reference)")
        }
        // The one URL is the SVG namespace, which is a name, not a fetch.
        #expect(html.components(separatedBy: "http://").count - 1 == 2)
        #expect(html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1 == 2)
        #expect(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">"#)
        )
    }

    @Test func thePageHoldsTheReportsNumbers() throws {
        let html = HTMLReport.render(try Self.smallReport())
        #expect(html.contains(#"<div class="card alert" id="total-alert-hours"><div class="label">Alert hours</div>"#))
        #expect(html.contains(#"<tr class="alert" data-hour="2026-11-29T17:00:00+08:00">"#))
        #expect(html.contains(#"<td data-field="inconsistent">2</td><td data-field="other">40</td>"#))
        #expect(html.contains(#"<code>Bad &quot;quoted&quot; com.apple.CFNetwork \xFF\x1B[2J</code>"#))
        #expect(html.contains(#"<rect class="bar alert" data-hour="2026-11-29T17:00:00+08:00""#))
        #expect(html.contains(#"<rect class="bar quiet" data-hour="2026-11-29T18:00:00+08:00""#))
        #expect(html.contains("<h2>Malformed lines (first 1 of 1)</h2>"))
    }

    @Test func anEmptyReportSaysSoAndDrawsNoChart() throws {
        var report = try Self.smallReport()
        report.hours = []
        report.totals.alertHours = []
        let html = HTMLReport.render(report)
        #expect(html.contains("<title>uaaudit report</title>"))
        #expect(html.components(separatedBy: "<p>No requests.</p>").count - 1 == 2)
        #expect(!html.contains("<svg"))
    }

    @Test func manyHoursGetAboutTwelveLabels() throws {
        var report = try Self.smallReport()
        let template = report.hours[1]
        report.hours = (0..<48).map { i in
            var hour = template
            hour.hour = HourKey(localHour: 493_000 + Int64(i), offsetMinutes: 0).iso8601
            return hour
        }
        let chart = HTMLCharts.shareChart(report)
        #expect(chart.components(separatedBy: "<text class=\"hour\"").count - 1 == 12)
        #expect(chart.components(separatedBy: "<text class=\"date\"").count - 1 == 3)
        #expect(chart.components(separatedBy: "<rect class=\"bar").count - 1 == 48)
    }

    @Test(
        arguments: [
            (0.00025, false, 0.00025), (0.0003, false, 0.0005), (0.024, false, 0.025), (0.26, false, 0.5),
            (1.2, true, 2), (3, true, 5), (13, true, 20), (26, true, 50), (0.3, true, 1),
        ] as [(Double, Bool, Double)])
    func axisStepsAreRound(raw: Double, integers: Bool, step: Double) {
        #expect(HTMLCharts.niceStep(raw, integers: integers) == step)
    }

    @Test(arguments: [(0.0, "0%"), (0.025, "2.5%"), (0.00025, "0.025%"), (0.1, "10%"), (1.0, "100%")])
    func tickLabelsHaveNoTrailingZeros(share: Double, text: String) {
        #expect(HTMLCharts.tickPercent(share) == text)
    }

    /// An hour alerted only for a UA drift counts in "Alert hours" (AlertPolicy: share or
    /// drift), is marked in the insight table with its reason, and the card says which is which.
    @Test func aDriftAlertCountsAsAnAlertHour() throws {
        var report = try Self.smallReport()
        let quiet = try #require(report.hours.firstIndex { !$0.alert })
        report.hours[quiet].drift = Report.DriftEntry(
            baselineHours: 1, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: ["urlsession share fell to 0% from 50% in the baseline"])
        let html = HTMLReport.render(report)
        #expect(
            html.contains(
                #"<div class="value">2 of 2</div><div class="note">above 0.100% with at least 100 requests: 1; UA drift: 1</div>"#
            ))
        #expect(
            html.contains(
                #"<td data-field="drift"><strong>alert</strong>: urlsession share fell to 0% from 50% in the baseline</td>"#
            ))
        // The hours table marks it too (`d`, as the summary does), and the footer.
        #expect(html.contains(#"<td data-field="alert">d</td>"#), "\(html)")
        #expect(html.contains(#"<td data-field="alert">!</td>"#))
    }

    @Test(arguments: [(1, 1), (12, 1), (13, 2), (48, 4), (72, 6), (168, 24), (200, 24), (400, 48), (2016, 168)])
    func labelsFallEveryRoundNumberOfHours(hours: Int, step: Int) {
        #expect(HTMLCharts.labelStep(hours: hours) == step)
    }
}
