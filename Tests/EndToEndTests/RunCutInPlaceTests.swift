import Foundation
import Testing

/// Issue 29, "A shrink with a provable prefix": a log cut in place to a line boundary below
/// what was read (the kept prefix unchanged), then written on: every line written after the
/// cut is counted, none twice, wherever the cut is: the state's fingerprints of the last
/// lines read find the very line it was cut at.
@Suite struct RunCutInPlaceTests {
    static let now = "2026-11-29T11:10:00Z"

    func run(_ h: RunHarness) throws -> Int {
        let result = try h.run(now: Self.now)
        #expect(result.status == 0, "\(result.stderr)")
        return try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int)
    }

    func stateJSON(_ h: RunHarness) throws -> [String: Any] {
        try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
    }

    func current(_ h: RunHarness) throws -> [String: Any] {
        let logs = try unwrap(try stateJSON(h)["logs"] as? [String: [String: Any]])
        return try unwrap(logs.values.first?["current"] as? [String: Any])
    }

    func checkpointEnds(_ h: RunHarness) throws -> [Int] {
        try unwrap(try current(h)["checkpoints"] as? [[String: Any]]).map { try unwrap($0["end"] as? Int) }
    }

    /// The offset after line `n` of the log (0 for n = 0).
    func lineEnd(_ h: RunHarness, _ n: Int) throws -> Int {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: h.log)))
        var seen = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            seen += 1
            if seen == n { return i + 1 }
        }
        return n == 0 ? 0 : bytes.count
    }

    func truncate(_ h: RunHarness, to size: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: h.log))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    enum Where: String, CaseIterable {
        case insideTheFirstChunk, insideAMiddleChunk, oneLineBelowTheOffset, atACheckpoint
    }

    /// 9,000 lines read, cut at `place`, then `appended` lines written (2,999; or 5,000, which
    /// write past the old offset, so the log is no shorter than what was read): all counted.
    @Test(arguments: Where.allCases, [2999, 5000])
    func everyLineWrittenAfterTheCutIsCountedOnce(place: Where, appended: Int) throws {
        let h = try RunHarness()
        try h.append(9000, hour: 10)
        #expect(try run(h) == 9000)
        let ends = try checkpointEnds(h)
        #expect(ends.count > 8)
        let cut: Int
        switch place {
        case .insideTheFirstChunk: cut = try lineEnd(h, 10)
        case .insideAMiddleChunk: cut = try lineEnd(h, 6000)
        case .oneLineBelowTheOffset: cut = try lineEnd(h, 8999)
        case .atACheckpoint: cut = ends[ends.count / 2]
        }
        #expect(ends.contains(cut) == (place == .atACheckpoint), "\(place): \(cut) in \(ends)")
        try truncate(h, to: cut)
        try h.append(appended, hour: 10, minute: 30)
        #expect(try run(h) == 9000 + appended, "\(place)")
        #expect(try h.gaps().isEmpty, "\(place)")
        let totals = try unwrap(try h.reportJSON()["totals"] as? [String: Any])
        #expect((totals["classes"] as? [String: Int])?["urlsession"] == 9000 + appended)
        let hours = try h.hours()
        #expect(hours.map(\.1) == [9000 + appended])
        // Read on afterwards as usual.
        #expect(try run(h) == 9000 + appended)
        try h.append(7, hour: 10, minute: 40)
        #expect(try run(h) == 9007 + appended)
        #expect(try h.gaps().isEmpty)
    }

    /// A state written before the fingerprints were kept (today's state without its
    /// `recent_lines`) still behaves as before: the cut chunk's bytes up to the first line past
    /// its end are an `uncertain` gap, and what follows is read. That run keeps the
    /// fingerprints: a second cut is then found exactly.
    @Test func aStateWithoutFingerprintsLeavesTheUncertainGapAsBefore() throws {
        let h = try RunHarness()
        try h.append(9000, hour: 10)
        #expect(try run(h) == 9000)
        #expect(try h.dropRecentLines() == 1)
        #expect(try current(h)["recent_lines"] == nil)

        let ends = try checkpointEnds(h)
        let cut = try lineEnd(h, 6000)
        let kept = try unwrap(ends.last { $0 <= cut })
        let next = try unwrap(ends.first { $0 > cut })
        try truncate(h, to: cut)
        try h.append(2999, hour: 10, minute: 30)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: h.log)))
        // The first line that starts at or after the cut chunk's old end.
        let gapEnd = bytes[next - 1] == 0x0A ? next : try unwrap(bytes[next...].firstIndex(of: 0x0A)) + 1
        let after = bytes[gapEnd...].filter { $0 == 0x0A }.count
        #expect(after < 2999)
        #expect(try run(h) == 9000 + after)
        let gaps = try h.gaps()
        #expect(gaps.count == 1)
        #expect(gaps.first?["uncertain"] as? Bool == true)
        #expect(gaps.first?["from_offset"] as? Int == kept)
        #expect(gaps.first?["to_offset"] as? Int == gapEnd)
        #expect(try current(h)["recent_lines"] is [String: Any])

        // Cut again, below what that run read: now found at its line.
        try truncate(h, to: try lineEnd(h, 8000))
        try h.append(100, hour: 10, minute: 50)
        #expect(try run(h) == 9100 + after)
        #expect(try h.gaps().count == 1)
    }

    enum Rotation: String, CaseIterable {
        /// `mv` and a new log (logrotate's `create`, `delaycompress`).
        case renamed
        /// `mv`, a new log, and the rotated file compressed at once (`compress` without `delaycompress`).
        case compressed
    }

    /// The line the log is cut at in the rotation tests: none kept, the middle, 50 below the
    /// offset, one below it.
    static let cutLines = [0, 150, 250, 299]

    /// Reviewer's A6: 300 lines read, the log cut in place at `line`, 7 lines written, the log
    /// rotated, 4 written in the new one: all 311 counted, none twice. The 7 lines written
    /// after the cut are in the rotated file, which is shorter than the offset (or, cut one
    /// line below it, changed below it): it is read from where its old content ends, not from
    /// the offset (which found nothing, or the middle of a line: 304 and 310, no gap).
    @Test(arguments: Rotation.allCases, cutLines)
    func aLogCutInPlaceThenRotatedIsReadFromTheCut(rotation: Rotation, line: Int) throws {
        let h = try RunHarness()
        try h.append(300, hour: 10)
        #expect(try run(h) == 300)
        try truncate(h, to: try lineEnd(h, line))
        try h.append(7, hour: 10, minute: 20)
        try h.move("access.log", "access.log.1")
        if rotation == .compressed { try h.gzip("access.log.1") }
        try h.append(4, hour: 10, minute: 30)
        #expect(try run(h) == 311, "\(rotation), cut at line \(line)")
        let gaps = try h.gaps()
        if line > 0 {
            #expect(gaps.isEmpty, "\(rotation), cut at line \(line): \(gaps)")
        } else if rotation == .renamed {
            // Emptied, or copied and truncated with the copy gone: what the log held past the
            // offset before that may be lost, as for a live log emptied.
            #expect(gaps.count == 1)
            #expect(gaps.first?["uncertain"] as? Bool == true)
            let reason = gaps.first?["reason"] as? String ?? ""
            #expect(reason.contains("truncated in place"), "\(reason)")
            #expect(reason.contains("access.log.1"), "\(reason)")
        }
        // Read on afterwards as usual.
        try h.append(5, hour: 10, minute: 40)
        #expect(try run(h) == 316)
        #expect(try h.gaps().count == gaps.count)
    }

    /// The same with Debian's real logrotate (`create`; `create` + `compress`), on a stopped clock.
    @Test(.requires(.logrotate), .requires(.faketime), arguments: [false, true], [10, 150, 299])
    func aLogCutInPlaceThenRotatedByLogrotateIsReadFromTheCut(compress: Bool, line: Int) throws {
        let test = "aLogCutInPlaceThenRotatedByLogrotateIsReadFromTheCut"
        guard let logrotate = ExternalTool.find(.logrotate, test: test),
            let faketime = ExternalTool.find(.faketime, test: test)
        else { return }
        let h = try RunHarness()
        let conf = "\(h.log) {\n    rotate 5\n    create\n" + (compress ? "    compress\n" : "") + "}\n"
        let confPath = try h.dir.write("logrotate.conf", conf)
        try h.append(300, hour: 10)
        #expect(try run(h) == 300)
        try truncate(h, to: try lineEnd(h, line))
        try h.append(7, hour: 10, minute: 20)
        try h.logrotate(logrotate, conf: confPath, on: "2026-11-29 11:00:00", faketime: faketime)
        #expect(FileManager.default.fileExists(atPath: h.log + (compress ? ".1.gz" : ".1")))
        try h.append(4, hour: 10, minute: 30)
        #expect(try run(h) == 311, "compress: \(compress), cut at line \(line)")
        #expect(try h.gaps().isEmpty)
    }

    /// A state without the fingerprints: the rotated file's bytes from the last chunk that
    /// still hashes the same to the first line past the cut chunk's end are an `uncertain` gap
    /// that names the rotated file and the range, as for the live log; what follows is read.
    @Test func aLogCutThenRotatedWithoutFingerprintsLeavesAnUncertainGapInTheRotatedFile() throws {
        let h = try RunHarness()
        try h.append(9000, hour: 10)
        #expect(try run(h) == 9000)
        #expect(try h.dropRecentLines() == 1)
        let ends = try checkpointEnds(h)
        let cut = try lineEnd(h, 6000)
        let kept = try unwrap(ends.last { $0 <= cut })
        let next = try unwrap(ends.first { $0 > cut })
        try truncate(h, to: cut)
        try h.append(2999, hour: 10, minute: 30)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: h.log)))
        let gapEnd = bytes[next - 1] == 0x0A ? next : try unwrap(bytes[next...].firstIndex(of: 0x0A)) + 1
        let after = bytes[gapEnd...].filter { $0 == 0x0A }.count
        try h.move("access.log", "access.log.1")
        try h.append(4, hour: 10, minute: 40)
        #expect(try run(h) == 9004 + after)
        let gaps = try h.gaps()
        #expect(gaps.count == 1)
        #expect(gaps.first?["uncertain"] as? Bool == true)
        #expect(gaps.first?["file"] as? String == h.log + ".1")
        #expect(gaps.first?["from_offset"] as? Int == kept)
        #expect(gaps.first?["to_offset"] as? Int == gapEnd)
    }

    /// Third review, F2: the log cut inside its first chunk (its first bytes changed, its first
    /// line kept), written on, then rotated by real logrotate with `copytruncate` (a copy, the
    /// log emptied in place) or `compress` at once: the rotated file, found by its first line,
    /// is read from the cut; the kept lines were counted twice (318 of 308).
    @Test(.requires(.logrotate), .requires(.faketime), arguments: ["copytruncate", "copytruncate\n    compress", "create\n    compress"], [2, 10])
    func aLogCutInsideItsFirstChunkThenRotatedCountsTheKeptLinesOnce(directives: String, line: Int) throws {
        let test = "aLogCutInsideItsFirstChunkThenRotatedCountsTheKeptLinesOnce"
        guard let logrotate = ExternalTool.find(.logrotate, test: test),
            let faketime = ExternalTool.find(.faketime, test: test)
        else { return }
        let h = try RunHarness()
        let conf = "\(h.log) {\n    rotate 5\n    \(directives)\n}\n"
        let confPath = try h.dir.write("logrotate.conf", conf)
        try h.append(300, hour: 10)
        #expect(try run(h) == 300)
        try truncate(h, to: try lineEnd(h, line))
        try h.append(5, hour: 10, minute: 20)
        try h.logrotate(logrotate, conf: confPath, on: "2026-11-29 11:00:00", faketime: faketime)
        try h.append(3, hour: 10, minute: 30)
        #expect(try run(h) == 308, "\(directives), cut at line \(line)")
        let gaps = try h.gaps()
        #expect(gaps.isEmpty, "\(gaps)")
    }
}
