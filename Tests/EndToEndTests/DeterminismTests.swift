import Foundation
import Testing

/// A report is a pure function of its inputs and options (CONTRACTS: the report): the same
/// input scanned again, or with any `--threads`, gives byte-identical JSON apart from
/// `generated_at`, including lists cut among tied entries and sampled client figures.
@Suite struct DeterminismTests {
    /// 150,000 requests in one hour, 36 MB (three 16 MiB chunks), each from its own client
    /// (more than the 131,072 a result holds exactly for an hour): app and alert requests
    /// alternate, 1,500 alert-class paths and 1,500 alert-class UAs each requested equally
    /// often (ties in every trimmed list), 3,000 UA families.
    static func write(_ path: String) throws {
        var out = [UInt8]()
        out.reserveCapacity(40 << 20)
        for i in 0..<150_000 {
            let client = "10.\(i >> 16 & 255).\(i >> 8 & 255).\(i & 255)"
            let minute = i * 60 / 150_000
            let time = "29/Nov/2026:10:\(minute < 10 ? "0" : "")\(minute):00 +0000"
            let ua: String
            let path: String
            if i % 2 == 0 {
                ua = "MyApp/5.12.\(i % 7) (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
                path = "/api/app/\(i % 11)"
            } else {
                ua = "Vendor\(String(UnicodeScalar(UInt8(65 + (i / 2) % 26))))SDK\(String(UnicodeScalar(UInt8(97 + (i / 52) % 26))))x"
                    + "\(String(UnicodeScalar(UInt8(97 + (i / 1352) % 26))))/1.0 com.apple.CFNetwork/1494.0.7 tag\((i / 2) % 1_500)"
                path = "/api/p\((i / 2) % 1_500)/item"
            }
            let line =
                "\(client) - - [\(time)] \"GET \(path)?q=\(i) HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.001 uct=\"-\" uht=\"-\" urt=\"-\"\n"
            out.append(contentsOf: line.utf8)
        }
        try Data(out).write(to: URL(fileURLWithPath: path))
    }

    static func withoutGeneratedAt(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("\"generated_at\"") }.joined(separator: "\n")
    }

    @Test func reportsAreByteIdenticalAcrossRunsAndThreadCounts() throws {
        let dir = try Scratch()
        let log = dir.path("busy.log")
        try Self.write(log)
        var reports: [String: String] = [:]
        for (name, threads) in [("1", 1), ("2", 2), ("2 again", 2), ("2 third", 2), ("3", 3), ("4", 4)] {
            let result = try Tool.run(["scan", "--json", "--threads", "\(threads)", "--top", "20", log])
            #expect(result.status == 0, "\(result.stderr)")
            reports[name] = Self.withoutGeneratedAt(result.stdout)
        }
        let first = try unwrap(reports["1"])
        for (name, report) in reports { #expect(report == first, "--threads \(name) differs from --threads 1") }

        // What made it hard: sampled clients, and lists cut among ties.
        let json = try unwrap(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let hour = try unwrap((json["hours"] as? [[String: Any]])?.first)
        #expect(hour["requests"] as? Int == 150_000)
        let clients = try unwrap(hour["clients"] as? [String: Any])
        #expect(clients["exact"] as? Bool == false)
        let paths = try unwrap(hour["top_paths"] as? [[String: Any]])
        #expect(paths.count == 20)
        #expect(paths.allSatisfy { $0["count"] as? Int == 50 })
        let top = try unwrap(hour["top"] as? [[String: Any]])
        #expect(top.count == 20)
    }
}
