import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, 0 as Int64),
        (1969, 12, 31, -1),
        (2026, 11, 29, 20786),
        (2000, 2, 29, 11016),
        (2000, 3, 1, 11017),
        (2024, 2, 29, 19782),
        (1900, 3, 1, -25508),
        (1600, 2, 29, -135081),
        (1, 1, 1, -719162),
        (9999, 12, 31, 2_932_896),
    ])
    func daysSinceEpoch(year: Int, month: Int, day: Int, days: Int64) {
        #expect(CivilDate.daysSinceEpoch(year: year, month: month, day: day) == days)
        let civil = CivilDate.civil(fromDays: days)
        #expect(civil.year == year)
        #expect(civil.month == month)
        #expect(civil.day == day)
    }

    @Test func everyDayFrom1599To2401RoundTrips() {
        // Walking day by day checks the two functions against each other and against daysInMonth;
        // only the first mismatch is reported.
        var days = CivilDate.daysSinceEpoch(year: 1599, month: 1, day: 1)
        var firstMismatch: String?
        for year in 1599...2401 {
            for month in 1...12 {
                for day in 1...CivilDate.daysInMonth(year: year, month: month) {
                    let back = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
                    let civil = CivilDate.civil(fromDays: days)
                    if firstMismatch == nil, back != days || civil != (year, month, day) {
                        firstMismatch = "\(year)-\(month)-\(day): day \(days), daysSinceEpoch \(back), civil \(civil)"
                    }
                    days += 1
                }
            }
        }
        #expect(firstMismatch == nil)
        #expect(days == CivilDate.daysSinceEpoch(year: 2402, month: 1, day: 1))
    }

    @Test(arguments: [
        (2026, 1, 31), (2026, 2, 28), (2026, 3, 31), (2026, 4, 30), (2026, 5, 31), (2026, 6, 30),
        (2026, 7, 31), (2026, 8, 31), (2026, 9, 30), (2026, 10, 31), (2026, 11, 30), (2026, 12, 31),
        (2024, 2, 29), (2000, 2, 29), (1900, 2, 28), (2100, 2, 28), (1600, 2, 29), (2023, 2, 28),
    ])
    func daysInMonth(year: Int, month: Int, days: Int) {
        #expect(CivilDate.daysInMonth(year: year, month: month) == days)
    }
}
