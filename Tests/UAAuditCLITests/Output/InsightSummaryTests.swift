import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct InsightSummaryTests {
    /// Requests, then those answered 401/403, then the path: as before for counts of up to 7
    /// digits; longer ones push the rest right instead of touching (an attack easily sends
    /// 10^7 refused requests to one path in a day).
    @Test func pathRowsKeepASpaceBetweenTheirCounts() {
        #expect(InsightSummary.pathRow("/api/me", 5, 2, width: 80) == "       5       2  /api/me\n")
        #expect(
            InsightSummary.pathRow("/api/v2/search", 300_000_000, 200_000_000, width: 80)
                == "300000000 200000000  /api/v2/search\n")
        let long = InsightSummary.pathRow(String(repeating: "/x", count: 60), 300_000_000, 200_000_000, width: 80)
        #expect(long.count == 81)  // 80 columns and the newline
    }

    /// A busy hour's split clients (millions, estimated): the sentence breaks into two lines of
    /// at most 80 columns instead of running to 85.
    @Test func millionsOfSplitClientsStayWithinEightyColumns() {
        var report = PaletteTests.report(alert: true)
        report.hours[0].clients = Report.ClientsEntry(
            key: "$remote_addr", appClasses: ["urlsession", "webview"], app: 64_123_456, alert: 3_300_000,
            split: 3_212_345, splitShare: 3_212_345.0 / 64_123_456, exact: false, sampleRate: 0.031_25,
            splitError: 1_200, examples: [])
        let lines = InsightSummary.clients(report, alert: "inconsistent", width: 80).split(separator: "\n").map(
            String.init)
        #expect(
            lines == [
                "split clients (one $remote_addr with app and inconsistent UAs in an hour):",
                "  1 of 1 hours; most in 2026-11-29 17:00+08:00: ~3212345 of 64123456 app clients",
                "  (5.010%)",
            ])
        #expect(lines.allSatisfy { $0.count <= 80 })
        // A small hour's sentence is one line, as before.
        report.hours[0].clients?.split = 3
        report.hours[0].clients?.app = 150
        report.hours[0].clients?.splitShare = 0.02
        report.hours[0].clients?.exact = true
        let small = InsightSummary.clients(report, alert: "inconsistent", width: 80).split(separator: "\n")
        #expect(small[1] == "  1 of 1 hours; most in 2026-11-29 17:00+08:00: 3 of 150 app clients (2.000%)")
    }
}
