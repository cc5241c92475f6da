import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Big hostile inputs: exact counts, and the scan's peak memory under
/// ``MeasuredRun/peakMemoryBoundKiB`` whatever the input's size or variety.
@Suite struct HostileInputTests {
    static func report(_ result: MeasuredRun.Result) throws -> [String: Any] {
        try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    static func totals(_ result: MeasuredRun.Result) throws -> [String: Any] {
        try unwrap(try report(result)["totals"] as? [String: Any])
    }

    /// Peak RSS within CONTRACTS' bound: the idle RSS of the same options plus 16 MiB.
    static func checkMemory(_ result: MeasuredRun.Result, _ what: String, options: [String] = []) throws {
        let idle = try MeasuredRun.idleKiB(options: options)
        let bound = idle + MeasuredRun.workingMemoryKiB
        print("\(what): peak RSS \(result.peakKiB) KiB (idle \(idle) KiB, bound \(bound) KiB)")
        #expect(result.peakKiB > 0)
        if Tool.underSanitizer { return }  // ASan's shadow memory is not the scan's
        #expect(result.peakKiB <= bound, "\(what)")
        #expect(result.peakKiB < MeasuredRun.peakMemoryBoundKiB, "\(what)")
    }

    /// 1 GiB of random bytes: every line is malformed, none is a request.
    @Test(.requires(.python3)) func aGigabyteOfRandomBytes() throws {
        let dir = try Scratch()
        let path = dir.path("random.bin")
        // 16 MiB from /dev/urandom, written 64 times: random to the tokenizer, and fast to make.
        let urandom = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        var block = [UInt8](try urandom.read(upToCount: 16 << 20) ?? Data())
        try #require(block.count == 16 << 20)
        block[0] = 0x78  // never the gzip magic
        let newlines = block.withUnsafeBytes { buffer in
            var count = 0
            var p = buffer.baseAddress!
            let end = p + buffer.count
            while let hit = memchr(p, 0x0A, end - p) {
                count += 1
                p = UnsafeRawPointer(hit) + 1
            }
            return count
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        for _ in 0..<64 { try #require(MeasuredRun.writeAll(fd, block)) }
        close(fd)
        let lines = 64 * newlines + (block.last == 0x0A ? 0 : 1)

        let result = try MeasuredRun.run(["scan", "--json", path], stdinFile: "/dev/null")
        // Every line malformed: the input does not match its format (CONTRACTS' exit 8), and
        // the report is still complete.
        #expect(result.status == 8, "\(result.stderr)")
        #expect(result.stderr.contains("no known format parses them either"))
        let totals = try Self.totals(result)
        #expect(totals["lines"] as? Int == lines)
        #expect(totals["malformed"] as? Int == lines)
        #expect(totals["requests"] as? Int == 0)
        let source = try unwrap((try Self.report(result)["sources"] as? [[String: Any]])?.first)
        #expect(source["bytes"] as? Int == 1 << 30)
        #expect((try Self.report(result)["malformed_samples"] as? [Any])?.count == 10)
        try Self.checkMemory(result, "1 GiB of random bytes")
    }

    /// A 50 MB line between two good ones: one malformed line with a cut sample, and the
    /// reader goes on to count the next line.
    @Test(.requires(.python3)) func aFiftyMegabyteLine() throws {
        let dir = try Scratch()
        let good = Lines.uaLog(ua: Lines.cfnetwork)
        let long = Lines.uaLog(ua: String(repeating: "A", count: 50_000_000))
        let path = try dir.write("long.log", good + "\n" + long + "\n" + good + "\n")

        let result = try MeasuredRun.run(["scan", "--json", path], stdinFile: "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        let totals = try Self.totals(result)
        #expect(totals["lines"] as? Int == 3)
        #expect(totals["requests"] as? Int == 2)
        #expect(totals["malformed"] as? Int == 1)
        #expect((totals["classes"] as? [String: Int])?["inconsistent"] == 2)
        let samples = try unwrap(try Self.report(result)["malformed_samples"] as? [[String: Any]])
        #expect(samples.count == 1)
        #expect(samples.first?["line"] as? Int == 2)
        #expect(samples.first?["reason"] as? String == "longer than the line limit (see --max-line-bytes)")
        #expect(samples.first?["text"] as? String == String(long.prefix(512)))
        try Self.checkMemory(result, "a 50 MB line")
    }

    /// 20,000 distinct alert-class UAs of 30 KB in one hour (600 MB): the hour's top-UA table
    /// is bounded in bytes as well as entries, each UA kept as its first 1 KiB and its length
    /// (it took 50 MB, over idle + 16 MiB, when each was kept whole; issue 31).
    @Test(.requires(.python3)) func twentyThousandLongAlertUAsInOneHour() throws {
        let junk = String(repeating: "abcdefghij", count: 3_000)
        let before = Array(
            #"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET /api/v2/me HTTP/1.1" 200 2 "-" "SDK/"#.utf8)
        let tail = Array(" com.apple.CFNetwork/1494 \(junk)".utf8) + Array(#"" rt=0.000 uct="-" uht="-" urt="-""#.utf8)
        let dir = try Scratch()
        let path = dir.path("long-uas.log")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        var buffer: [UInt8] = []
        for i in 0..<20_000 {
            buffer += before + Array(String(i).utf8) + tail + [0x0A]
            if buffer.count >= 1 << 22 {
                try #require(MeasuredRun.writeAll(fd, buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try #require(MeasuredRun.writeAll(fd, buffer))
        close(fd)
        let result = try MeasuredRun.run(["scan", "--json", path], stdinFile: "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.totals(result)["requests"] as? Int == 20_000)
        let hour = try unwrap((try Self.report(result)["hours"] as? [[String: Any]])?.first)
        let top = try unwrap(hour["top"] as? [[String: Any]])
        #expect(top.count == 10)
        // Counts tie at 1: the lowest bytes first. 'SDK/0 ' + 1,024 bytes of the UA's 30,031.
        let first = "SDK/0 com.apple.CFNetwork/1494 " + junk
        #expect(top.first?["ua"] as? String == String(first.prefix(1_024)) + " …[30031 bytes]")
        #expect(hour["top_approximate"] as? Bool == true)
        try Self.checkMemory(result, "20,000 long alert-class UAs in one hour")
    }

    /// Ten million requests, each with a UA of its own, in a file read by two threads: each
    /// class known by construction. The `other` UAs also differ in letters, so each is a UA
    /// family of its own too (2.5 million families against tables of 8,192 per thread).
    @Test(.requires(.python3)) func tenMillionDistinctUserAgents() throws {
        let perClass = 2_500_000
        // Around a number: webview, urlsession, inconsistent and other, by the built-in rules.
        let templates: [(String, String)] = [
            ("MyApp/5.12.", " (iPhone; iPhone15,3; iOS 17_4) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1"),
            ("MyApp/5.12.", " (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"),
            ("YourSDK/", " com.apple.CFNetwork/1494.0.7"),
            ("curl/8.", " "),
        ]
        let before = Array(#"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET /api/v2/me HTTP/1.1" 200 2 "-" ""#.utf8)
        let after = Array(#"" rt=0.000 uct="-" uht="-" urt="-""#.utf8) + [0x0A]
        let parts = templates.map { (Array($0.0.utf8), Array($0.1.utf8)) }

        let dir = try Scratch()
        let path = dir.path("uas.log")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        for i in 0..<perClass {
            let digits = Array(String(i).utf8)
            for (k, (head, tail)) in parts.enumerated() {
                buffer += before
                buffer += head
                buffer += digits
                buffer += tail
                if k == 3 {
                    // Letters for the digits: curl/8.12 bc, curl/8.13 bd …, a family each.
                    for d in digits { buffer.append(d + 0x31) }
                }
                buffer += after
            }
            if buffer.count >= (1 << 22) - 1024 {
                try #require(MeasuredRun.writeAll(fd, buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try #require(MeasuredRun.writeAll(fd, buffer))
        close(fd)
        let result = try MeasuredRun.run(["scan", "--json", "-j", "2", path], stdinFile: "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        let totals = try Self.totals(result)
        #expect(totals["requests"] as? Int == 4 * perClass)
        #expect(totals["malformed"] as? Int == 0)
        #expect(
            totals["classes"] as? [String: Int] == [
                "webview": perClass, "urlsession": perClass, "inconsistent": perClass, "other": perClass, "missing": 0,
            ])
        let hours = try unwrap(try Self.report(result)["hours"] as? [[String: Any]])
        #expect(hours.count == 1)
        #expect(hours.first?["top_approximate"] as? Bool == true)
        let top = try unwrap(hours.first?["top"] as? [[String: Any]])
        #expect(top.count == 10)
        #expect(top.allSatisfy { $0["count"] as? Int == 1 })
        let drift = try unwrap(hours.first?["drift"] as? [String: Any])
        #expect(drift["baseline_hours"] as? Int == 0)
        try Self.checkMemory(result, "10,000,000 distinct UAs", options: ["-j", "2"])
    }
}
