import Foundation
import Testing

/// `uaaudit run` when a rotated `.gz` is damaged: a gap for what cannot be read, the rest counted.
@Suite struct RunDamagedRotationTests {
    // Review of issue 11, F3: one cut-short .gz stalled the log (exit 3 every hour).
    @Test func aCutShortGzipIsAGapFromItsLastWholeLineAndTheLiveLogIsRead() throws {
        let h = try RunHarness()
        try h.append(10, hour: 8)
        try h.run(now: "2026-11-29T08:20:00Z")
        let readUpTo = try unwrap(try FileManager.default.attributesOfItem(atPath: h.log)[.size] as? Int)
        try h.append(3000, hour: 8, minute: 30, cls: "other")
        try h.move("access.log", "access.log.1")
        let original = try Data(contentsOf: URL(fileURLWithPath: h.dir.path("access.log.1")))
        try h.gzip("access.log.1")
        let gz = h.dir.path("access.log.1.gz")
        let packed = try Data(contentsOf: URL(fileURLWithPath: gz))
        try packed.prefix(packed.count / 2).write(to: URL(fileURLWithPath: gz))
        try h.append(7, hour: 9, cls: "inconsistent")
        let result = try h.run(now: "2026-11-29T09:20:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        let gaps = try h.gaps()
        #expect(gaps.count == 1)
        let from = try unwrap(gaps.first?["from_offset"] as? Int)
        #expect(gaps.first?["file"] as? String == gz)
        #expect(gaps.first?["to_offset"] == nil)
        #expect(from > readUpTo + 4096 && from < original.count)
        #expect(original[from - 1] == 0x0A)
        let readLines = original[readUpTo..<from].filter { $0 == 0x0A }.count
        #expect(try h.reportedClasses() == ["urlsession": 10, "other": readLines, "inconsistent": 7])
        // The next run neither reads the damaged file again nor records it again.
        try h.append(2, hour: 9, minute: 30, cls: "inconsistent")
        #expect(try h.run(now: "2026-11-29T09:40:00Z").status == 0)
        #expect(try h.gaps().count == 1)
        #expect(try h.reportedClasses() == ["urlsession": 10, "other": readLines, "inconsistent": 9])
    }

    // A rotated .gz whose damage decodes to lines of no format was taken for a log in the wrong
    // format: exit 8 and nothing committed, on every run until someone removed the file.
    @Test func aGzipDamagedIntoGarbageIsCountedAndTheLiveLogRead() throws {
        let h = try RunHarness()
        try h.append(10, hour: 8)
        try h.run(now: "2026-11-29T08:20:00Z")
        try h.move("access.log", "access.log.1")
        let damaged = try DamagedGzipTests.damagedGzip(in: h.dir, name: "access.log.2.gz")
        // Older than the log that was read: a rotated file no run saw, read whole.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_764_300_000)], ofItemAtPath: damaged)
        try h.append(7, hour: 9, cls: "inconsistent")
        let result = try h.run(now: "2026-11-29T09:20:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try h.reportedClasses() == ["urlsession": 30, "inconsistent": 7])
        #expect(try h.gaps().map { $0["file"] as? String } == [damaged])
        #expect(
            try h.gaps().first?["reason"] as? String
                == "the compressed rotated file could not be read past this offset of its decompressed content (corrupt gzip data: incorrect data check; the lines inflated from this member before it are counted but unverified); the lines before it were counted, 200 of the 220 as malformed: damaged data decodes to lines of no format, so most of them are likely lost requests"
        )
        #expect(try h.run(now: "2026-11-29T09:40:00Z").status == 0)
        #expect(try h.reportedClasses() == ["urlsession": 30, "inconsistent": 7])
    }

    /// Damage in a member's first block garbles it from its first line: the log's other files
    /// in the run, of lines the format parses, confirm the format; with none, the run cannot
    /// tell damage from another format and commits nothing (exit 8).
    @Test func aGzipGarbledFromItsFirstLineIsDamageWhenTheLogsOtherFilesParse() throws {
        let h = try RunHarness()
        try h.append(10, hour: 8)
        try h.run(now: "2026-11-29T08:20:00Z")
        try h.move("access.log", "access.log.1")
        let damaged = try DamagedGzipTests.damagedGzip(in: h.dir, name: "access.log.2.gz", head: 0)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_764_300_000)], ofItemAtPath: damaged)
        // The live log empty: nothing confirms the format.
        try h.appendRaw("", to: h.log)
        let state = try Data(contentsOf: URL(fileURLWithPath: h.state))
        let unsure = try h.run(now: "2026-11-29T09:20:00Z")
        #expect(unsure.status == 8, "\(unsure.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.state)) == state)
        // Lines the format parses in the live log: the garbled file is damage.
        try h.append(12, hour: 9, cls: "inconsistent")
        let result = try h.run(now: "2026-11-29T09:30:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try h.reportedClasses() == ["urlsession": 10, "inconsistent": 12])
        #expect(try h.gaps().map { $0["file"] as? String } == [damaged])
    }

    /// A damaged rotated file whose lines parse as another known format is a file from before
    /// the format changed: the live log does not make its lines damage (exit 8, nothing
    /// committed, rather than all of them committed as lost).
    @Test func aDamagedFileInAnotherKnownFormatIsNotConfirmedByTheLiveLog() throws {
        let h = try RunHarness()
        try h.append(10, hour: 8)
        try h.run(now: "2026-11-29T08:20:00Z")
        try h.move("access.log", "access.log.1")
        let damaged = try DamagedGzipTests.damagedGzip(in: h.dir, name: "access.log.2.gz", combined: true)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_764_300_000)], ofItemAtPath: damaged)
        try h.append(12, hour: 9, cls: "inconsistent")
        let state = try Data(contentsOf: URL(fileURLWithPath: h.state))
        let result = try h.run(now: "2026-11-29T09:20:00Z")
        #expect(result.status == 8, "\(result.stderr)")
        #expect(result.stderr.contains("they parse as 'combined'"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.state)) == state)
    }

    /// A file an earlier run read part of, then rotated and damaged after more good lines: the
    /// lines committed before confirm the format, though fewer than ten follow them.
    @Test func aResumedFileIsConfirmedByTheLinesCommittedBefore() throws {
        let h = try RunHarness()
        try h.append(50, hour: 8)
        #expect(try h.run(now: "2026-11-29T08:30:00Z").status == 0)
        try h.append(5, hour: 8, minute: 40)
        try h.appendRaw(DamagedGzipTests.garbageLines(300, width: 80, seed: 99), to: h.log)
        try h.move("access.log", "access.log.1")
        try h.gzip("access.log.1")
        let gz = h.dir.path("access.log.1.gz")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: gz))
        bytes[bytes.count - 8] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: gz))
        try h.appendRaw("", to: h.log)
        let result = try h.run(now: "2026-11-29T09:20:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try h.reportedClasses() == ["urlsession": 55])
        #expect(try h.gaps().map { $0["file"] as? String } == [gz])
    }
}
