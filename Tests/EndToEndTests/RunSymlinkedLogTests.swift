import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 29: a live log that is a symbolic link re-pointed daily (cronolog's
/// `access.log -> access-2026-12-07.log`): the old target's unread tail is read once, beside
/// the new one under its dated name. And rotated candidates of another owner are not read.
@Suite struct RunSymlinkedLogTests {
    static let now = "2026-11-29T11:10:00Z"

    func run(_ h: RunHarness) throws -> Int {
        let result = try h.run(now: Self.now)
        #expect(result.status == 0, "\(result.stderr)")
        return try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int)
    }

    /// `ln -sfn target access.log`, atomically (a new link renamed over the old one).
    func point(_ h: RunHarness, to target: String) throws {
        let temp = h.dir.path(".access.log.link")
        try FileManager.default.createSymbolicLink(atPath: temp, withDestinationPath: target)
        #expect(rename(temp, h.log) == 0)
    }

    @Test(arguments: [3, 300])
    func aRepointedLinkFinishesTheOldTarget(lines: Int) throws {
        let h = try RunHarness()
        let first = h.dir.path("access-2026-12-06.log")
        let second = h.dir.path("access-2026-12-07.log")
        try h.append(lines, hour: 10, to: first)
        try point(h, to: "access-2026-12-06.log")
        #expect(try run(h) == lines)
        try h.append(20, hour: 10, minute: 20, to: first)
        try h.append(10, hour: 10, minute: 30, to: second)
        try point(h, to: "access-2026-12-07.log")
        #expect(try run(h) == lines + 30)
        let gaps = try h.gaps()
        #expect(gaps.isEmpty, "\(gaps)")
        // Late lines to the old target, and the next day's link: each read once.
        try h.append(2, hour: 10, minute: 35, to: first)
        try h.append(5, hour: 10, minute: 40, to: second)
        let third = h.dir.path("access-2026-12-08.log")
        try h.append(4, hour: 10, minute: 50, to: third)
        try point(h, to: "access-2026-12-08.log")
        #expect(try run(h) == lines + 41)
        #expect(try h.gaps().isEmpty)
        #expect(try run(h) == lines + 41)
    }

    @Test(.requires(.root)) func aRotatedCandidateOfAnotherOwnerIsNamedAndNotRead() throws {
        let h = try RunHarness()
        try h.append(300, hour: 10)
        #expect(try run(h) == 300)
        try h.append(9, hour: 10, minute: 20, to: h.dir.path("access.log.1"))
        #expect(chown(h.dir.path("access.log.1"), 65534, 65534) == 0)
        try h.append(6, hour: 10, minute: 30)
        #expect(try run(h) == 306)
        let gaps = try h.gaps()
        #expect(gaps.count == 1)
        #expect(gaps.first?["file"] as? String == h.dir.path("access.log.1"))
        #expect(
            gaps.first?["reason"] as? String
                == "not read as a rotated file of this log: it is owned by uid 65534, neither the live log's owner (uid 0) nor root"
        )
        // Named once, not at every run.
        #expect(try run(h) == 306)
        #expect(try h.gaps().count == 1)
    }
}
