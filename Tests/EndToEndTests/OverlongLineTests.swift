import Foundation
import Testing

/// Lines longer than `--max-line-bytes`, complete or not, are malformed lines with a cut
/// sample, never requests, and never overrun a buffer. The first three inputs once corrupted
/// the heap (`free(): invalid size`, exit 134) or crashed (SIGSEGV): complete over-long lines
/// reached scratch buffers sized to the limit. CI runs this suite on an AddressSanitizer build
/// too (`UAAUDIT_BINARY`, see `.ci/run`).
@Suite struct OverlongLineTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var uaBytes: Int
        var options: [String]
        var description: String { name }
    }

    static let cases = [
        Case(name: "1.1 MB UA, default limit", uaBytes: 1_100_000, options: []),
        Case(name: "5 MB UA, default limit", uaBytes: 5_000_000, options: []),
        Case(name: "5 KB UA, --max-line-bytes 1024", uaBytes: 5_000, options: ["--max-line-bytes", "1024"]),
    ]

    /// A UA of `uaBytes` shaped like the app's URLSession UA, so a line that slipped through
    /// would be counted as `urlsession`.
    static func ua(_ bytes: Int) -> String {
        let head = "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
        return head + String(repeating: "x", count: max(0, bytes - head.count))
    }

    static func totals(_ result: Tool.Result) throws -> [String: Any] {
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        return try unwrap(report["totals"] as? [String: Any])
    }

    @Test(arguments: cases, [1, 2])
    func overLongUAInAnOtherwiseValidLineIsMalformed(_ c: Case, threads: Int) throws {
        let dir = try Scratch()
        let good = Lines.uaLog(ua: Lines.cfnetwork)
        let path = try dir.write("long.log", [good, Lines.uaLog(ua: Self.ua(c.uaBytes)), good].joined(separator: "\n") + "\n")
        let result = try Tool.run(["scan", "--json", "--threads", "\(threads)"] + c.options + [path])
        #expect(result.status == 0, "\(result.stderr)")
        let totals = try Self.totals(result)
        #expect(totals["lines"] as? Int == 3)
        #expect(totals["requests"] as? Int == 2)
        #expect(totals["malformed"] as? Int == 1)
        let classes = try unwrap(totals["classes"] as? [String: Int])
        #expect(classes["inconsistent"] == 2)
        #expect(classes["urlsession"] == 0)
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let samples = try unwrap(report["malformed_samples"] as? [[String: Any]])
        #expect(samples.count == 1)
        #expect(samples.first?["line"] as? Int == 2)
        #expect(samples.first?["reason"] as? String == "longer than the line limit (see --max-line-bytes)")
        // The summary says why too, under the sample.
        let summary = try Tool.run(["scan", "--threads", "\(threads)"] + c.options + [path])
        let lines = summary.out.split(separator: "\n", omittingEmptySubsequences: false)
        let at = try unwrap(lines.firstIndex { $0.hasPrefix("  \(path):2: ") })
        #expect(lines[at + 1] == "    (longer than the line limit (see --max-line-bytes))")
    }

    /// With `--max-line-bytes 1024`: a line of exactly 1,024 bytes is a request, one of 1,025
    /// is malformed.
    @Test func aLineExactlyAtTheLimitCountsAndOneByteOverDoesNot() throws {
        let dir = try Scratch()
        let base = Lines.uaLog(ua: "").utf8.count
        let exact = Lines.uaLog(ua: Self.ua(1024 - base))
        let over = Lines.uaLog(ua: Self.ua(1025 - base))
        try #require(exact.utf8.count == 1024 && over.utf8.count == 1025)
        let path = try dir.write("limit.log", exact + "\n" + over + "\n" + exact)
        let result = try Tool.run(["scan", "--json", "--max-line-bytes", "1024", path])
        #expect(result.status == 0, "\(result.stderr)")
        let totals = try Self.totals(result)
        #expect(totals["lines"] as? Int == 3)
        #expect(totals["requests"] as? Int == 2)
        #expect(totals["malformed"] as? Int == 1)
        #expect((totals["classes"] as? [String: Int])?["urlsession"] == 2)
    }
}
