import Testing

@testable import UAAuditCLI

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
}
