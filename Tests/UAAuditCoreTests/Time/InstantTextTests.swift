import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct InstantTextTests {
    /// 2024-03-31T15:00:00Z.
    static let fifteen: Int64 = 1_711_897_200

    @Test(arguments: [
        ("2024-03-31T15Z", fifteen), ("2024-03-31T15:00Z", fifteen), ("2024-03-31T15:00:00Z", fifteen),
        ("2024-03-31 23:00+08:00", fifteen), ("2024-03-31T23:00:00+0800", fifteen), ("2024-03-31T23+08", fifteen),
        ("2024-03-31T10:30-04:30", fifteen), ("2024-03-31T15:59:59Z", fifteen + 3599),
    ])
    func readsAnInstantWithItsZone(text: String, seconds: Int64) {
        #expect(InstantText.parse(text) == seconds)
    }

    @Test(arguments: ["2024-03-31T15", "2024-03-31T15:00", "2024-03-31", "2024-03-31T1Z", "2024-03-31T15:00+8", "soon"])
    func refusesTextWithoutAZoneOrAnHour(text: String) {
        #expect(InstantText.parse(text) == nil)
    }
}
