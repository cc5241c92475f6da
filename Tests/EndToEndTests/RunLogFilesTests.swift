import Foundation
import Testing

/// What `run` takes for a log's rotated files, and what it refuses: found by a reviewer
/// trying to break it (each lost or double-counted lines with exit 0 before).
@Suite struct RunLogFilesTests {
    static func requests(_ h: RunHarness) throws -> Int {
        try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int)
    }

    /// Another log named like a rotation with a number (`access.log-8080`) is not a
    /// rotated file of `access.log`: its lines were counted under it, twice.
    @Test func aLogNamedWithANumberIsNotARotation() throws {
        let h = try RunHarness()
        try h.append(100, hour: 10)
        #expect(try h.run(now: "2026-11-29T12:00:00Z").status == 0)
        let other = h.dir.path("access.log-8080")
        try h.append(50, hour: 10, minute: 20, to: other)
        try h.move("access.log", "access.log.1")
        try h.append(30, hour: 11)
        let result = try h.run(now: "2026-11-29T12:00:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.requests(h) == 130)
        #expect(try h.gaps().isEmpty)
    }

    /// A log given through a symbolic link: its rotated files are beside the real file.
    @Test func aSymlinkedLogFollowsItsRotations() throws {
        let h = try RunHarness()
        let real = h.dir.path("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        let target = real + "/access.log"
        try h.append(100, hour: 10, to: target)
        try FileManager.default.createSymbolicLink(atPath: h.log, withDestinationPath: target)
        #expect(try h.run(now: "2026-11-29T12:00:00Z").status == 0)
        try h.append(40, hour: 10, minute: 30, to: target)
        try h.move("real/access.log", "real/access.log.1")
        try h.append(25, hour: 11, to: target)
        let result = try h.run(now: "2026-11-29T12:00:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.requests(h) == 165)
        #expect(try h.gaps().isEmpty)
    }

    /// The same file under two spellings would be read twice: exit 2, nothing read.
    @Test func oneFileListedTwiceIsRefused() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        let link = h.dir.path("link.log")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: h.log)
        let result = try Tool.run(["run", "-q", "--state", h.state, "--now", "2026-11-29T12:00:00Z", h.log, link])
        #expect(result.status == 2)
        #expect(result.stderr.contains("are the same file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.state))
    }

    /// Rotated files present but not openable (here: too many open files) are an error for the
    /// log, which is not advanced; they used to be taken for deleted (a gap), and read again
    /// later (double counts).
    @Test func rotatedFilesThatCannotBeOpenedHoldTheLog() throws {
        let h = try RunHarness()
        // Thirty old rotated files, there before the first run (known, never read).
        for i in (1...30).reversed() {
            try h.appendRaw(
                h.line("29/Nov/2026:09:00:00 +0000", "urlsession") + "\n", to: h.dir.path("access.log.\(i + 1)"))
        }
        try h.append(100, hour: 10)
        #expect(try h.run(now: "2026-11-29T12:00:00Z").status == 0)
        try h.append(20, hour: 10, minute: 40)
        try h.move("access.log", "access.log.1")
        try h.append(10, hour: 11)
        let limited = try h.run(
            now: "2026-11-29T12:00:00Z", launcher: ["/bin/sh", "-c", "ulimit -n 24 && exec \"$0\" \"$@\""])
        #expect(limited.status == 3, "\(limited.stderr)")
        #expect(limited.stderr.contains("its rotated file"), "\(limited.stderr)")
        let result = try h.run(now: "2026-11-29T12:00:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.requests(h) == 130)
        #expect(try h.gaps().isEmpty)
    }

    /// With no descriptor left to list the log's directory, no rotated file was found and the
    /// rotated log was taken for one cut in place: a gap, then the rotated file read whole by the
    /// next run (lines lost and counted twice). It is an error now: nothing advanced.
    @Test func aDirectoryThatCannotBeListedHoldsTheLog() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z").status == 0)
        try h.append(5, hour: 10, minute: 40)
        try h.move("access.log", "access.log.1")
        try h.append(3, hour: 10, minute: 50)
        let limited = try h.run(
            now: "2026-11-29T10:55:00Z", launcher: ["/bin/sh", "-c", "ulimit -n 5 && exec \"$0\" \"$@\""])
        #expect(limited.status == 3, "\(limited.stderr)")
        #expect(
            limited.stderr.contains(
                "\(h.log): cannot list its directory \(h.dir.url.path) for its rotated files: Too many open files; fix that and the next run reads on"
            ), "\(limited.stderr)")
        let result = try h.run(now: "2026-11-29T10:56:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.requests(h) == 18)
        #expect(try h.gaps().isEmpty)
    }

    /// A state edited by hand with impossible values is exit 2 naming them, not a crash.
    @Test(arguments: [
        (#""offset" : "#, #""offset" : -100, "was" : "#, "offset -100 is negative"),
        (#""fingerprint_bytes" : "#, #""fingerprint_bytes" : -5, "was" : "#, "fingerprint_bytes -5 is outside"),
        // Counts a run adds to (issue 31: these trapped, exit 132).
        (#""late" : "#, #""late" : -1, "was" : "#, ": late -1 is negative"),
        (
            #""errors" : "#, #""errors" : 9223372036854775807, "was" : "#,
            ": errors 9223372036854775807 is over 9007199254740992, the most a count may be"
        ),
        (#""size" : "#, #""size" : 9223372036854775807, "was" : "#, ": size 9223372036854775807 is outside 0..."),
    ])
    func impossibleStateValuesAreExitTwo(from: String, to: String, message: String) throws {
        let h = try RunHarness()
        try h.append(100, hour: 10)
        #expect(try h.run(now: "2026-11-29T12:00:00Z").status == 0)
        // The old value stays under a key the decoder ignores, so the JSON stays valid.
        let text = try String(contentsOfFile: h.state, encoding: .utf8).replacingOccurrences(of: from, with: to)
        try #require(text.contains(to))
        try Data(text.utf8).write(to: URL(fileURLWithPath: h.state))
        let result = try h.run(now: "2026-11-29T12:00:00Z")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
