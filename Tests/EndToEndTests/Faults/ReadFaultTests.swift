import Foundation
import Testing

/// A log that fails to read part-way (EIO, injected by the debug build's
/// `UAAUDIT_TEST_READ_FAIL=SUFFIX@BYTE`): named with the byte where it failed; what was read
/// before is counted in a scan and said to be incomplete; the other inputs are audited whole;
/// a run does not advance that log, so the next run counts the rest exactly once.
@Suite struct ReadFaultTests {
    @Test func aScanCountsWhatWasReadSaysWhereItStoppedAndAuditsTheNextLog() throws {
        let dir = try Scratch()
        let first = (0..<10).map { Lines.uaLog(ua: $0 % 3 == 0 ? Lines.cfnetwork : Lines.urlsession) + "\n" }
        let a = try dir.write("a.log", first.joined())
        let b = try dir.write("b.log", String(repeating: Lines.uaLog(ua: Lines.urlsession) + "\n", count: 5))
        // The disk fails 20 bytes into line 7: lines 1-6 were read (2 of them CFNetwork).
        let failAt = first.prefix(6).joined().utf8.count + 20
        let result = try Tool.run(
            ["scan", "--json", a, b], environment: ["UAAUDIT_TEST_READ_FAIL": "/a.log@\(failAt)"])
        #expect(result.status == 3)
        #expect(result.stderr == "uaaudit: \(a): read failed: Input/output error (at byte \(failAt))\n")
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let sources = try unwrap(report["sources"] as? [[String: Any]])
        #expect(sources.map { $0["path"] as? String } == [a, b])
        #expect(sources.map { $0["lines"] as? Int } == [6, 5])
        #expect(
            sources.map { $0["bytes"] as? Int } == [failAt, 5 * (Lines.uaLog(ua: Lines.urlsession).utf8.count + 1)])
        #expect(sources[0]["error"] as? String == "read failed: Input/output error (at byte \(failAt))")
        #expect(sources[1]["error"] == nil)
        let totals = try unwrap(report["totals"] as? [String: Any])
        #expect(totals["lines"] as? Int == 11)
        #expect(totals["malformed"] as? Int == 0)
        #expect(
            totals["classes"] as? [String: Int] == [
                "webview": 0, "urlsession": 9, "inconsistent": 2, "other": 0, "missing": 0,
            ])
    }

    /// A file big enough to be read in chunks side by side: with one thread or two, every
    /// line before the one the failure cut is counted, and nothing after it.
    @Test(arguments: [1, 2])
    func aChunkedScanCountsEveryLineBeforeTheFailure(threads: Int) throws {
        let dir = try Scratch()
        let line = Lines.uaLog(ua: Lines.urlsession) + "\n"
        // A chunk is 16 MiB (ScanConfiguration.defaultChunkBytes): the file has two.
        let count = (24 << 20) / line.utf8.count + 1  // over 2 MiB: two chunks of at least 1 MiB
        let log = try dir.write("big.log", String(repeating: line, count: count))
        let failAt = count * 3 / 4 * line.utf8.count + 7  // 7 bytes into a line of the second chunk
        let result = try Tool.run(
            ["scan", "--json", "--threads", "\(threads)", log],
            environment: ["UAAUDIT_TEST_READ_FAIL": "/big.log@\(failAt)"])
        #expect(result.status == 3)
        #expect(result.stderr == "uaaudit: \(log): read failed: Input/output error (at byte \(failAt))\n")
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let source = try unwrap((report["sources"] as? [[String: Any]])?.first)
        #expect(source["lines"] as? Int == count * 3 / 4)
        #expect(source["bytes"] as? Int == failAt)
        #expect((report["totals"] as? [String: Any])?["requests"] as? Int == count * 3 / 4)
    }

    /// A fault before the middle also fails the probe that looks for the split point: one
    /// thread then reads from the start, so the lines before the fault still count.
    @Test func aFaultUnderTheSplitProbeFallsBackToOneThread() throws {
        let dir = try Scratch()
        let line = Lines.uaLog(ua: Lines.urlsession) + "\n"
        // A chunk is 16 MiB (ScanConfiguration.defaultChunkBytes): the file has two.
        let count = (24 << 20) / line.utf8.count + 1
        let log = try dir.write("big.log", String(repeating: line, count: count))
        let failAt = count / 4 * line.utf8.count + 7
        let result = try Tool.run(
            ["scan", "--json", "--threads", "2", log], environment: ["UAAUDIT_TEST_READ_FAIL": "/big.log@\(failAt)"])
        #expect(result.status == 3)
        #expect(result.stderr == "uaaudit: \(log): read failed: Input/output error (at byte \(failAt))\n")
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let source = try unwrap((report["sources"] as? [[String: Any]])?.first)
        #expect(source["lines"] as? Int == count / 4)
        #expect(source["bytes"] as? Int == failAt)
    }

    /// A bad region inside the first chunk: the second chunk is still read, and the error says
    /// which bytes were not.
    @Test func aBadRegionInTheFirstChunkNamesTheBytesNotRead() throws {
        let dir = try Scratch()
        let line = Lines.uaLog(ua: Lines.urlsession) + "\n"
        // A chunk is 16 MiB (ScanConfiguration.defaultChunkBytes): the file has two.
        let count = (24 << 20) / line.utf8.count + 1
        let log = try dir.write("big.log", String(repeating: line, count: count))
        let size = count * line.utf8.count
        let badFrom = count / 4 * line.utf8.count + 7
        let result = try Tool.run(
            ["scan", "--json", "--threads", "2", log],
            environment: ["UAAUDIT_TEST_READ_FAIL": "/big.log@\(badFrom)-\(badFrom + 100)"])
        #expect(result.status == 3)
        // The second chunk starts after the first newline at or after byte 16 MiB - 1.
        let boundary = ((16 << 20) - 1) / line.utf8.count * line.utf8.count + line.utf8.count
        #expect(
            result.stderr
                == "uaaudit: \(log): read failed: Input/output error (at byte \(badFrom)); bytes up to \(boundary) "
                + "were not read, the rest was\n")
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let source = try unwrap((report["sources"] as? [[String: Any]])?.first)
        #expect(source["lines"] as? Int == count / 4 + (size - boundary) / line.utf8.count)
    }

    @Test func aRunDoesNotAdvanceALogThatFailedAndTheNextRunCountsItOnce() throws {
        let h = try RunHarness()
        try h.append(40, hour: 10)  // past the 4 KiB a run fingerprints
        #expect(try h.run(now: "2026-11-29T10:50:00Z").status == 0)
        let committed = try Self.offset(h)
        #expect(committed == Int(try FileManager.default.attributesOfItem(atPath: h.log)[.size] as? Int ?? -1))

        try h.append(20, hour: 10, minute: 51, cls: "inconsistent")
        let failAt = committed + 1000
        let failed = try h.run(
            now: "2026-11-29T10:59:00Z", environment: ["UAAUDIT_TEST_READ_FAIL": "/access.log@\(failAt)"])
        #expect(failed.status == 3)
        #expect(
            failed.stderr
                == "uaaudit: \(h.log): read failed: Input/output error (at byte \(failAt)); that log was not advanced and will be read again\n"
        )
        #expect(try Self.offset(h) == committed)
        #expect(try h.reportedClasses() == ["urlsession": 40])

        #expect(try h.run(now: "2026-11-29T10:59:00Z").status == 0)
        #expect(try h.reportedClasses() == ["urlsession": 40, "inconsistent": 20])
        #expect(try h.reportedClasses() == h.written)
        #expect(try Self.offset(h) == Int(try FileManager.default.attributesOfItem(atPath: h.log)[.size] as? Int ?? -1))
    }

    /// Where the state says reading of the harness's log stopped.
    static func offset(_ h: RunHarness) throws -> Int {
        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
        let logs = try unwrap(state["logs"] as? [String: Any])
        let log = try unwrap(logs[h.log] as? [String: Any])
        return try unwrap((log["current"] as? [String: Any])?["offset"] as? Int)
    }
}
