import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct HourKeyTests {
    @Test(arguments: [
        (hourKey(2026, 11, 29, 17, 480), "2026-11-29T17:00:00+08:00"),
        (hourKey(2026, 11, 29, 9, 0), "2026-11-29T09:00:00+00:00"),
        (hourKey(2026, 3, 15, 8, 330), "2026-03-15T08:00:00+05:30"),
        (hourKey(2026, 3, 15, 8, -570), "2026-03-15T08:00:00-09:30"),
        (hourKey(2026, 1, 1, 0, -30), "2026-01-01T00:00:00-00:30"),
        (hourKey(2026, 1, 1, 0, 840), "2026-01-01T00:00:00+14:00"),
        (hourKey(2026, 1, 1, 0, -720), "2026-01-01T00:00:00-12:00"),
        (hourKey(1970, 1, 1, 0, 0), "1970-01-01T00:00:00+00:00"),
        (hourKey(1969, 12, 31, 23, -60), "1969-12-31T23:00:00-01:00"),
        (hourKey(1969, 12, 31, 0, 0), "1969-12-31T00:00:00+00:00"),
        (hourKey(1900, 3, 1, 5, 60), "1900-03-01T05:00:00+01:00"),
        (hourKey(1600, 2, 29, 12, 0), "1600-02-29T12:00:00+00:00"),
        (hourKey(2000, 2, 29, 23, 0), "2000-02-29T23:00:00+00:00"),
        (hourKey(1, 1, 1, 0, 0), "0001-01-01T00:00:00+00:00"),
        (hourKey(9999, 12, 31, 23, 0), "9999-12-31T23:00:00+00:00"),
    ])
    func iso8601RoundTrip(key: HourKey, text: String) {
        #expect(key.iso8601 == text)
        #expect(HourKey(iso8601: text) == key)
    }

    @Test func localHoursAroundTheEpoch() {
        #expect(hourKey(1970, 1, 1, 0, 0).localHour == 0)
        #expect(hourKey(1970, 1, 1, 1, 0).localHour == 1)
        #expect(hourKey(1969, 12, 31, 23, 0).localHour == -1)
        #expect(hourKey(1969, 12, 31, 0, 0).localHour == -24)
        #expect(hourKey(2026, 11, 29, 17, 480).localHour == 498881)
        #expect(HourKey(localHour: -1, offsetMinutes: 0).iso8601 == "1969-12-31T23:00:00+00:00")
        #expect(HourKey(localHour: -24, offsetMinutes: 0).iso8601 == "1969-12-31T00:00:00+00:00")
        #expect(HourKey(localHour: -25, offsetMinutes: 0).iso8601 == "1969-12-30T23:00:00+00:00")
    }

    @Test func startInstant() {
        #expect(hourKey(2026, 11, 29, 17, 480).startInstant == 1_795_942_800)
        #expect(hourKey(2026, 11, 29, 9, 0).startInstant == 1_795_942_800)
        #expect(hourKey(2026, 11, 29, 14, 330).startInstant == 1_795_941_000)
        #expect(hourKey(1970, 1, 1, 0, -570).startInstant == 34_200)
        #expect(hourKey(1969, 12, 31, 23, 0).startInstant == -3_600)
    }

    @Test func zuluParsesAsUTC() {
        #expect(HourKey(iso8601: "2026-11-29T17:00:00Z") == hourKey(2026, 11, 29, 17, 0))
    }

    @Test(arguments: [
        "2026-11-29T17:18:40+08:00",
        "2026-11-29T17:00:01+08:00",
        "2026-11-29T17:00:00+0800",
        "2026-11-29T17:00:00.000+08:00",
        "2026-11-29T17:00+08:00",
        "2026-11-29T17:00:00",
        "2026-11-31T17:00:00+08:00",
        "2026-11-29T17:00:00 08:00",
        "",
    ])
    func rejectsWhatIsNotAnHour(_ text: String) {
        #expect(HourKey(iso8601: text) == nil)
    }

    @Test func ordersByInstantThenOffset() {
        let a = hourKey(2026, 11, 29, 9, 0)  // 09:00Z
        let b = hourKey(2026, 11, 29, 17, 480)  // 09:00Z
        let c = hourKey(2026, 11, 29, 14, 330)  // 08:30Z
        let d = hourKey(2026, 11, 28, 23, -570)  // 08:30Z on the 29th
        let e = hourKey(2026, 11, 29, 10, 0)  // 10:00Z
        let f = hourKey(1969, 12, 31, 23, 0)  // before 1970
        let g = hourKey(2026, 11, 29, 18, 480)  // 10:00Z
        #expect([e, b, g, a, d, c, f].sorted() == [f, d, c, a, b, e, g])
        #expect(a < b)
        #expect(!(b < a))
        #expect(!(a < a))
        #expect(a != b)
        #expect(d < c)
        #expect(c < a)
        // A later local hour can be an earlier instant.
        #expect(hourKey(2026, 11, 29, 10, 0) < hourKey(2026, 11, 29, 9, -120))
    }

    @Test func sameInstantDifferentOffsetsAreDifferentBuckets() {
        let keys: Set<HourKey> = [
            hourKey(2026, 11, 29, 9, 0), hourKey(2026, 11, 29, 17, 480), hourKey(2026, 11, 29, 9, 0),
            HourKey(localHour: 498873, offsetMinutes: 0),
        ]
        #expect(keys.count == 2)
    }
}
