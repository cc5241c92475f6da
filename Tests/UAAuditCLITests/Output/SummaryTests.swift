import Testing

@testable import UAAuditCLI

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
        #expect(Summary.shortHour("2026-11-29T17:00:00+08:00") == "2026-11-29 17:00+08:00")
        #expect(Summary.shortHour("2026-11-29T17:00:00-09:30") == "2026-11-29 17:00-09:30")
    }
}
