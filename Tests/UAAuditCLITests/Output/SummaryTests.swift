import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct SummaryTests {
    static let percents: [(Double, String)] = [
        (0, "0.000%"), (0.001, "0.100%"), (0.0017211703958691911, "0.172%"), (0.0999, "9.990%"),
        (0.12345, "12.35%"), (0.999, "99.90%"), (1, "100.0%"), (0.000004, "0.000%"), (0.0999996, "10.00%"),
    ]

    @Test(arguments: percents)
    func percentFitsSixCharacters(share: Double, text: String) {
        #expect(Summary.percent(share) == text)
        #expect(text.count <= 6)
    }

    @Test func shortHour() {
        #expect(Report.shortHour("2026-11-29T17:00:00+08:00") == "2026-11-29 17:00+08:00")
        #expect(Report.shortHour("2026-11-29T17:00:00-09:30") == "2026-11-29 17:00-09:30")
    }

    /// A day of a host at 100,000 requests a second: 8.64 billion requests, ten digits; here
    /// half of them in the alert class.
    @Test func countsLongerThanTheColumnsWidenThemInsteadOfRunningTogether() {
        var report = PaletteTests.report(alert: false)
        report.hours[0].requests = 360_000_000
        report.hours[0].classes = [
            "webview": 10, "urlsession": 179_999_990, "inconsistent": 180_000_000, "other": 0, "missing": 0,
        ]
        report.totals.requests = 8_640_000_000
        report.totals.classes = [
            "webview": 1_234_567_890, "urlsession": 3_085_432_110, "inconsistent": 4_320_000_000, "other": 0,
            "missing": 0,
        ]
        let lines = Summary.render(report).split(separator: "\n").map(String.init)
        // Five classes of ten digits do not fit in 80 columns: the alert class alone, and every
        // class in lines of at most 80.
        #expect(lines[0] == "hour                     requests inconsiste  share")
        #expect(lines[1] == "2026-11-29 17:00+08:00  360000000  180000000 1.333%")
        #expect(lines[2] == "total                  8640000000 4320000000 1.333%")
        #expect(lines[3] == "classes: webview 1234567890, urlsession 3085432110, inconsistent 4320000000,")
        #expect(lines[4] == "  other 0, missing 0")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    }

    /// A threshold finer than three decimals of a percent shows as given, and the shares it is
    /// compared with get as many decimals: never "0.000%" over "0.000%".
    @Test func aFineThresholdShowsItsDecimalsAndTheShares() {
        var report = PaletteTests.report(alert: true)
        report.threshold = Threshold(parsing: "0.000001")!
        report.hours[0].requests = 400_000
        report.hours[0].share = 2.0 / 400_000
        report.totals.requests = 400_000
        report.totals.share = 2.0 / 400_000
        let lines = Summary.render(report).split(separator: "\n").map(String.init)
        #expect(lines[0] == "hour                  requests inconsi   share")
        #expect(lines[1] == "2026-11-29 17:00+08:00  400000       2 0.0005% !")
        #expect(lines[2] == "total                   400000       2 0.0005%")
        #expect(lines.contains("  is above 0.0001% with at least 100 requests"))
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        // The default threshold's table is as it was: every class, three decimals.
        let plain = Summary.render(PaletteTests.report(alert: true)).split(separator: "\n").map(String.init)
        #expect(plain[1] == "2026-11-29 17:00+08:00     150       0     148       2       0       0 1.333% !")
        #expect(plain.contains("  is above 0.100% with at least 100 requests"))
        // A threshold over 10% that the usual two decimals would round: shown whole, and the
        // shares with as many decimals.
        report.threshold = Threshold(parsing: "0.123456")!
        report.hours[0].share = 0.123_46
        let large = Summary.render(report).split(separator: "\n").map(String.init)
        #expect(large[1] == "2026-11-29 17:00+08:00  400000       2 12.3460% !")
        #expect(large.contains("  is above 12.3456% with at least 100 requests"))
    }

    /// A top UA counted ten billion times (a month of a busy host's traffic): the UA is cut
    /// shorter, the line stays within 80 columns.
    @Test func aTopUACountOfElevenDigitsKeepsTheLineWithinEightyColumns() throws {
        var report = PaletteTests.report(alert: true)
        let ua = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
        report.hours[0].top = [
            Report.TopEntry(ua: ua, count: 12_345_678_901), Report.TopEntry(ua: "short/1.0", count: 7),
        ]
        let lines = Summary.render(report).split(separator: "\n").map(String.init)
        let top = try #require(lines.firstIndex(of: "top inconsistent UAs:"))
        #expect(lines[top + 1] == "12345678901  " + String(ua.prefix(64)) + "…")
        #expect(lines[top + 1].count == 78)  // as an 8-digit count's line: 10 + 68
        #expect(lines[top + 2] == "       7  short/1.0")
    }

    /// A threshold typed with fifteen digits (the most `--threshold` takes) and a drift alert: the condition wraps instead of
    /// running to 84 columns.
    @Test func aLongThresholdWithADriftAlertWraps() {
        var report = PaletteTests.report(alert: true)
        report.threshold = Threshold(parsing: "0.99999999999999")!
        report.hours[0].drift = Report.DriftEntry(
            baselineHours: 3, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: [])
        let lines = Summary.render(report).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines.contains("  where the inconsistent share is above 99.999999999999% with at least 100"))
        #expect(lines.contains("  requests"))
    }

    /// The widest mark, "!d" (the share and a drift alert), still ends at column 80.
    @Test func anHourMarkedForBothAlertsFitsEightyColumns() {
        var report = PaletteTests.report(alert: true)
        report.hours[0].drift = Report.DriftEntry(
            baselineHours: 3, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: [])
        let lines = Summary.render(report).split(separator: "\n").map(String.init)
        #expect(lines[1] == "2026-11-29 17:00+08:00     150       0     148       2       0       0 1.333% !d")
        #expect(lines[1].count == 80)
    }

    /// A month of hours, every one alerting for both: the alert-hours sentence still fits.
    @Test func theAlertHoursSentenceFitsEightyColumnsForAMonth() {
        var report = PaletteTests.report(alert: true)
        report.hours[0].drift = Report.DriftEntry(
            baselineHours: 3, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: [])
        report.hours = Array(repeating: report.hours[0], count: 744)
        let lines = Summary.render(report).split(separator: "\n").map(String.init)
        #expect(lines.contains("alert hours: 744 of 744 (marked ! for the share: 744, d for drift: 744),"))
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    }
}
