import Foundation
import Testing

/// A simulated day: 24 hourly runs with a rotation, a compression, a crash and late lines in
/// the middle; the counts equal what was written and each breached hour is alerted exactly once.
@Suite struct RunDayTests {
    @Test func aDayOfHourlyRunsEndsWithTheTruth() throws {
        let h = try RunHarness()
        let breachedHours = [3, 9, 17]
        for hour in 0..<24 {
            try h.append(150, hour: hour)
            try h.append(20, hour: hour, minute: 30, cls: "other")
            if breachedHours.contains(hour) { try h.append(2, hour: hour, minute: 45, cls: "inconsistent") }
            if hour == 12 {  // logrotate create + delaycompress
                try h.move("access.log", "access.log.1")
                try h.appendRaw("", to: h.log)  // create: a missing live log is exit 3
                try h.append(3, hour: 12, minute: 59, to: h.dir.path("access.log.1"))
            }
            if hour == 14 {  // the next rotation compresses the previous one
                try h.move("access.log.1", "access.log.2")
                try h.gzip("access.log.2")
                try h.move("access.log", "access.log.1")
                try h.appendRaw("", to: h.log)
            }
            if hour == 20 { try h.append(5, hour: 18, minute: 59) }  // late lines for a closed hour
            let now = String(format: "2026-11-%02dT%02d:05:30Z", hour == 23 ? 30 : 29, (hour + 1) % 24)
            if hour == 16 {
                let crashed = try h.run(now: now, environment: ["UAAUDIT_TEST_CRASH_AT": "before-commit"])
                #expect(crashed.status == 9)
            }
            #expect(try h.run(now: now).status == 0, "hour \(hour)")
        }
        #expect(try h.reportedClasses() == h.written)
        let hours = try h.hours()
        #expect(hours.count == 24)
        #expect(hours.allSatisfy { $0.2 })  // the clock is past every hour's end + grace
        #expect(hours.first { $0.0 == "2026-11-29T18:00:00+00:00" }?.3 == 5)
        // No channel configured: every breached hour waits in the ledger for one.
        let ledger = try h.ledgerHours("pending")
        #expect(ledger == breachedHours.map { String(format: "2026-11-29T%02d:00:00+00:00", $0) })
        #expect(try h.gaps().isEmpty)
    }
}
