import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ExplainPageTests {
    /// An hour of a busy host (360 million requests): a column with a count of 8 digits or
    /// more widens (the others do not) instead of running into the next one.
    @Test func statusCountsLongerThanTheColumnsWidenThem() throws {
        var report = PaletteTests.report(alert: false)
        report.hours[0].requests = 360_000_000
        var urlsession = StatusCounts()
        urlsession.s2xx = 359_000_000
        urlsession.s4xx = 12_345_678
        urlsession.s403 = 12_000_000
        var inconsistent = StatusCounts()
        inconsistent.s2xx = 2
        report.hours[0].impact = ["urlsession": urlsession, "inconsistent": inconsistent]
        let lines = ExplainPage.render(report.hours[0], of: report, source: "r.json", palette: .plain)
            .split(separator: "\n").map(String.init)
        let table = try #require(lines.firstIndex(of: "What it cost"))
        #expect(
            lines[table + 1]
                == "  class               2xx     3xx      4xx     5xx   other     401      403")
        #expect(
            lines[table + 2]
                == "  inconsistent          2       0        0       0       0       0        0")
        #expect(
            lines[table + 3]
                == "  urlsession    359000000       0 12345678       0       0       0 12000000")
    }

    /// The verdict shows a fine threshold as given, and the hour's share as finely.
    @Test func theVerdictShowsAFineThresholdAsGiven() {
        var report = PaletteTests.report(alert: true)
        report.threshold = Threshold(parsing: "0.000001")!
        report.hours[0].requests = 400_000
        report.hours[0].share = 2.0 / 400_000
        let lines = ExplainPage.render(report.hours[0], of: report, source: "r.json", palette: .plain)
            .split(separator: "\n").map(String.init)
        #expect(lines.contains("  inconsistent 2 of 400000 requests = 0.0005%; over 0.0001%: ALERT"))
        report.hours[0].alert = false
        report.hours[0].share = 0.000_000_4
        let quiet = ExplainPage.render(report.hours[0], of: report, source: "r.json", palette: .plain)
        #expect(quiet.contains("  inconsistent 2 of 400000 requests = 0.0000%; not over 0.0001%\n"))
    }

    /// Counts of tens of billions and a fine threshold: the verdict wraps and the top UA is cut
    /// shorter, every line within 80 columns.
    @Test func longCountsAndAFineThresholdStayWithinEightyColumns() {
        var report = PaletteTests.report(alert: true)
        report.threshold = Threshold(parsing: "0.0000000123")!
        report.hours[0].requests = 37_500_000_000
        report.hours[0].classes["inconsistent"] = 5_500_000_000
        report.hours[0].share = 5_500_000_000.0 / 37_500_000_000
        report.hours[0].top = [Report.TopEntry(ua: String(repeating: "MyApp/1.0 ", count: 10), count: 12_345_678_901)]
        let lines = ExplainPage.render(report.hours[0], of: report, source: "r.json", palette: .plain)
            .split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines.contains("  inconsistent 5500000000 of 37500000000 requests = 14.66666667%; over"))
        #expect(lines.contains("  0.00000123%: ALERT"))
        #expect(lines.contains("12345678901  " + String(repeating: "MyApp/1.0 ", count: 6) + "MyAp…"))
    }

    /// Split clients by the trillion (a report merged from many): the sentence wraps.
    @Test func trillionsOfSplitClientsWrap() {
        var report = PaletteTests.report(alert: true)
        report.hours[0].clients = Report.ClientsEntry(
            key: "$remote_addr", appClasses: ["urlsession", "webview"], app: 1_787_775_000_000_000,
            alert: 14_000_000_000_000, split: 13_790_000_000_000,
            splitShare: 13_790_000_000_000.0 / 1_787_775_000_000_000,
            exact: true, sampleRate: 1, splitError: 0, examples: [])
        let lines = ExplainPage.render(report.hours[0], of: report, source: "r.json", palette: .plain)
            .split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines.contains("  13790000000000 of 1787775000000000 app clients (0.771%) also sent inconsistent"))
        #expect(lines.contains("  UAs"))
    }

    /// A month of a very busy host in one report (counts of a trillion): the status table
    /// splits into two, each line within 80 columns, rather than running to 113.
    @Test func statusCountsOfATrillionSplitTheTable() throws {
        var report = PaletteTests.report(alert: false)
        var urlsession = StatusCounts()
        urlsession.s2xx = 1_234_567_890_123
        urlsession.s3xx = 2_234_567_890_123
        urlsession.s4xx = 3_234_567_890_123
        urlsession.s5xx = 4_234_567_890_123
        urlsession.other = 5
        urlsession.s401 = 6
        urlsession.s403 = 7_234_567_890_123
        report.hours[0].impact = ["urlsession": urlsession]
        let lines = ExplainPage.render(report.hours[0], of: report, source: "r.json", palette: .plain)
            .split(separator: "\n").map(String.init)
        let table = try #require(lines.firstIndex(of: "What it cost"))
        #expect(
            Array(lines[(table + 1)...(table + 4)]) == [
                "  class                   2xx           3xx           4xx           5xx   other",
                "  urlsession    1234567890123 2234567890123 3234567890123 4234567890123       5",
                "  class             401           403",
                "  urlsession          6 7234567890123",
            ])
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    }
}
