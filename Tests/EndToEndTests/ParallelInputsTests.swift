import Foundation
import Testing

/// Rotated `.gz` logs are read side by side, one per thread, and merged in the order given
/// (issue 36): the report is byte-identical (apart from `generated_at`) for every `--threads`,
/// and so are the messages and the exit status.
@Suite struct ParallelInputsTests {
    /// Day `day` of a rotated log: `lines` requests over six hours, each client its own, app
    /// and alert-class requests alternating, 300 alert-class UAs and paths requested equally
    /// often (ties in every trimmed list), some lines malformed.
    static func day(_ day: Int, lines: Int) -> String {
        var text = ""
        text.reserveCapacity(lines * 230)
        for i in 0..<lines {
            if i % 211 == 17 {
                text += "not a log line \(day)-\(i)\n"
                continue
            }
            let client = "10.\(day).\(i >> 8 & 255).\(i & 255)"
            let hour = 10 + i * 6 / lines
            let minute = i % 60
            let time = "\(20 + day)/Nov/2026:\(hour):\(minute < 10 ? "0" : "")\(minute):00 +0800"
            let (ua, path): (String, String)
            if i % 2 == 0 {
                ua = "MyApp/5.12.\(i % 7) (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
                path = "/api/app/\(i % 11)"
            } else {
                ua = "Vendor\((i / 2) % 300)SDK/1.0 com.apple.CFNetwork/1494.0.7"
                path = "/api/p\((i / 2) % 300)/item"
            }
            text +=
                "\(client) - - [\(time)] \"GET \(path)?q=\(i) HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.001 uct=\"-\" uht=\"-\" urt=\"-\"\n"
        }
        return text
    }

    /// `access.log.N.gz` for each day, gzipped as logrotate does (`gzip -n` here).
    static func rotated(in dir: Scratch, days: ClosedRange<Int>, lines: Int) throws -> [String] {
        try days.map { n in
            let plain = try dir.write("access.log.\(n)", day(n, lines: lines))
            _ = try DamagedGzipTests.gzipped(plain)
            return plain + ".gz"
        }
    }

    /// Runs `scan --json` over `args` at 1, 2 and 4 threads and expects the same report,
    /// messages and status from each; returns the report (as JSON) and the status.
    static func sameForEveryThreadCount(_ args: [String], stdin: [UInt8]? = nil) throws -> ([String: Any], Int32) {
        var first: Tool.Result?
        for threads in [1, 2, 4] {
            let result = try Tool.run(["scan", "--json", "--threads", "\(threads)"] + args, stdin: stdin)
            guard let first else {
                first = result
                continue
            }
            #expect(
                DeterminismTests.withoutGeneratedAt(result.stdout) == DeterminismTests.withoutGeneratedAt(first.stdout),
                "--threads \(threads) differs from --threads 1")
            #expect(result.stderr == first.stderr, "--threads \(threads)")
            #expect(result.status == first.status, "--threads \(threads)")
        }
        let result = try unwrap(first)
        let json = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        return (json, result.status)
    }

    static func sources(_ json: [String: Any]) throws -> [(path: String, lines: Int, error: String?)] {
        try unwrap(json["sources"] as? [[String: Any]]).map {
            (try unwrap($0["path"] as? String), try unwrap($0["lines"] as? Int), $0["error"] as? String)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func twoGzipInputsGiveTheSameReportForEveryThreadCount() throws {
        let dir = try Scratch()
        let gz = try Self.rotated(in: dir, days: 1...2, lines: 20_000)
        let (json, status) = try Self.sameForEveryThreadCount(gz)
        #expect(status == 0)
        let sources = try Self.sources(json)
        #expect(sources.map(\.path) == gz)
        #expect(sources.map(\.lines) == [20_000, 20_000])
        #expect(sources.allSatisfy { $0.error == nil })
        // Six hours a day, in time order: day 1's, then day 2's.
        var perHour = [Int](repeating: 0, count: 6)
        for i in 0..<20_000 where i % 211 != 17 { perHour[i * 6 / 20_000] += 1 }
        let hours = try unwrap(json["hours"] as? [[String: Any]])
        #expect(hours.compactMap { $0["requests"] as? Int } == perHour + perHour)
    }

    /// A week of rotated logs, stdin among them and one `.gz` cut short in the middle: the cut
    /// one keeps its lines and its error (exit 3), the others are counted whole, in the order given.
    @Test(.timeLimit(.minutes(2)))
    func aWeekWithStdinAndACutGzipIsTheSameForEveryThreadCount() throws {
        let dir = try Scratch()
        var gz = try Self.rotated(in: dir, days: 1...6, lines: 8_000)
        let cutBytes = try Data(contentsOf: URL(fileURLWithPath: gz[2]))
        try cutBytes.prefix(cutBytes.count / 2).write(to: URL(fileURLWithPath: gz[2]))
        let live = try dir.write("access.log", Self.day(7, lines: 3_000))
        let stdin = try DamagedGzipTests.gzipped(try dir.write("piped.log", Self.day(8, lines: 5_000)))
        gz.insert("-", at: 4)
        let (json, status) = try Self.sameForEveryThreadCount(gz + [live], stdin: [UInt8](stdin))
        #expect(status == 3)
        let sources = try Self.sources(json)
        #expect(sources.map(\.path) == gz + [live])
        #expect(sources.map { $0.error == nil } == [true, true, false, true, true, true, true, true])
        #expect(
            sources[2].error
                == "truncated gzip file: it ends inside a compressed member (at byte \(cutBytes.count / 2))")
        let cut = sources[2].lines
        #expect(cut > 0 && cut < 8_000)
        #expect(sources.map(\.lines) == [8_000, 8_000, cut, 8_000, 5_000, 8_000, 8_000, 3_000])
    }

    /// A pipe named twice (`-` and `/dev/stdin`) would be read by two workers at once, its
    /// lines split between them: refused as one file given twice (review of issue 36).
    @Test func aPipeGivenAsDashAndByAPathIsRefused() throws {
        let lines = Self.day(8, lines: 50)
        for second in ["/dev/stdin", "/proc/self/fd/0"] {
            let result = try Tool.run(["scan", "--json", "--threads", "2", "-", second], stdin: Array(lines.utf8))
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "uaaudit: the input \(second) is - (standard input) again (the same file); give each input once "
                    + "(it would be counted twice)\n")
        }
    }
}
