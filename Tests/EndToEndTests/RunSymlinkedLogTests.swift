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

    /// A user of its own, made for one test and removed after it (`useradd`, `userdel`).
    final class TestUser {
        let name: String
        let uid: uid_t
        let gid: gid_t

        init() throws {
            name = "uaat\(getpid() % 100_000)\(UInt16.random(in: 0...9999))"
            let made = try ExternalTool.run(
                "/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
            #expect(made.status == 0, "useradd \(name)")
            let entry = try unwrap(getpwnam(name))
            uid = entry.pointee.pw_uid
            gid = entry.pointee.pw_gid
        }

        deinit { _ = try? ExternalTool.run("/usr/sbin/userdel", [name]) }
    }

    /// Issue 29: a user who may write the log directory (the live log's owner) plants rotated
    /// names that are symbolic links: to a file only root may read, and to another log. A run
    /// as root reads neither (whatever a link names, it is its own name that is checked), names
    /// each once, and finishes the real rotation beside them.
    @Test(.requires(.root)) func aPlantedLinkIsNamedAndNeverRead() throws {
        let user = try TestUser()
        let storage = try Scratch()
        let h = try RunHarness(storage: storage.url.path)
        let elsewhere = try Scratch()
        let secret = try elsewhere.write(
            "secret", "root-only t29-hunter2-secret line\nnot a log line t29-hunter2-secret\n")
        #expect(chmod(secret, 0o600) == 0)
        let other = elsewhere.path("other.log")
        try h.append(7, hour: 10, minute: 5, to: other)
        #expect(chown(other, user.uid, user.gid) == 0)
        #expect(chown(h.dir.url.path, user.uid, user.gid) == 0)
        try h.append(300, hour: 10)
        #expect(chown(h.log, user.uid, user.gid) == 0)
        #expect(try run(h) == 300)
        // The user's doing: two links under rotated names (then a real rotation, so that new
        // rotated files are looked for).
        let planted = [h.dir.path("access.log-20261208"), h.dir.path("access.log.2")]
        try FileManager.default.createSymbolicLink(atPath: planted[0], withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(atPath: planted[1], withDestinationPath: other)
        for link in planted { #expect(lchown(link, user.uid, user.gid) == 0) }
        try h.append(20, hour: 10, minute: 20)
        try h.move("access.log", "access.log.1")
        try h.append(6, hour: 10, minute: 30)
        #expect(chown(h.log, user.uid, user.gid) == 0)
        let result = try h.run(now: Self.now)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int) == 326)
        #expect(try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["malformed"] as? Int) == 0)
        let gaps = try h.gaps()
        #expect(gaps.compactMap { $0["file"] as? String }.sorted() == planted.sorted())
        #expect(
            gaps.allSatisfy {
                $0["reason"] as? String
                    == "not read as a rotated file of this log: it is a symbolic link, and a rotated file is never read through one"
            })
        #expect(result.stderr.contains(planted[0]), "\(result.stderr)")
        // Named once, never read, and the secret's text is nowhere.
        #expect(try run(h) == 326)
        #expect(try h.gaps().count == 2)
        for file in [h.report, h.state] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.contains("hunter2"), "\(file)")
        }
    }
}
