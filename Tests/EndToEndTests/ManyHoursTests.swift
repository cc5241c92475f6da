import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A scan spanning 300,000 distinct hours (one request each, 34 years): memory within the
/// bound docs/performance.md states (idle + 16 MiB + 3 KiB an hour), and time linear in the hours — it
/// once took 11 min 47 s and 4.5 GB (a quadratic drift baseline and client budget, every
/// hour's lists kept, the whole report encoded as one tree).
@Suite struct ManyHoursTests {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `hours` lines, one an hour from 1990-01-01T00:00Z; every third an `inconsistent` UA.
    static func write(hours: Int, to path: String) throws {
        var out = [UInt8]()
        out.reserveCapacity(hours * 170)
        var days = 0
        var (year, month, day) = (1990, 1, 1)
        for i in 0..<hours {
            let hour = i % 24
            if i > 0, hour == 0 {
                days += 1
                let monthDays = [
                    31, (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28, 31, 30, 31, 30,
                    31, 31, 30, 31, 30, 31,
                ][month - 1]
                day += 1
                if day > monthDays {
                    day = 1
                    month += 1
                    if month > 12 {
                        month = 1
                        year += 1
                    }
                }
            }
            let time =
                "\(day < 10 ? "0" : "")\(day)/\(months[month - 1])/\(year):\(hour < 10 ? "0" : "")\(hour):00:00 +0000"
            let ua = i % 3 == 0 ? Lines.cfnetwork : Lines.urlsession
            out.append(
                contentsOf:
                    "127.0.0.\(i % 250) - - [\(time)] \"GET /p\(i % 1000) HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\"\n"
                    .utf8)
        }
        try Data(out).write(to: URL(fileURLWithPath: path))
    }

    @Test(.requires(.python3)) func threeHundredThousandHoursStayBoundedAndLinear() throws {
        let dir = try Scratch()
        var seconds: [Int: Double] = [:]
        for hours in [30_000, 300_000] {
            let log = dir.path("hours-\(hours).log")
            try Self.write(hours: hours, to: log)
            let report = dir.path("report-\(hours).json")
            let started = Date()
            let result = try MeasuredRun.run(["scan", "-q", "--out", report, log], stdinFile: "/dev/null")
            seconds[hours] = Date().timeIntervalSince(started)
            #expect(result.status == 0, "\(result.stderr)")
            let idle = try MeasuredRun.idleKiB(options: [])
            let bound = idle + MeasuredRun.workingMemoryKiB + hours * 3
            print("\(hours) hours: \(seconds[hours]!) s, peak RSS \(result.peakKiB) KiB (bound \(bound) KiB)")
            if !Tool.underSanitizer { #expect(result.peakKiB <= bound) }
            // Foundation's decoder, built for speed even in a debug test: 300,000 hours are 780 MB
            // of JSON, and this test is about the scan.
            let decoded = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
            #expect(decoded.hours.count == hours)
            #expect(decoded.totals.requests == Int64(hours))
            #expect(decoded.totals.classes["inconsistent"] == Int64((hours + 2) / 3))
            // The newest 48 hours keep their lists; every hour keeps its counts and alert.
            #expect(decoded.hours.filter { $0.detailsDropped != true }.count == 48)
        }
        // Ten times the hours: about ten times the time (quadratic code took a hundred).
        let ratio = try #require(seconds[300_000]) / max(try #require(seconds[30_000]), 0.001)
        print("time ratio for 10x the hours: \(ratio)")
        #expect(ratio < 25)
    }
}
