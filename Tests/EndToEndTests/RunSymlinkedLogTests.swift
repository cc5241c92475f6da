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

    /// Issue 29: cronolog re-points the link daily, and two runs may be days apart (a host
    /// down, cron stopped): the files it named in between are read whole, once, in order; the
    /// older dated files beside them (there at the last run) are not read. Re-pointed 0 to 3
    /// times between the two runs; every day's file gets late lines after it is left.
    @Test(arguments: [0, 1, 2, 3])
    func aLinkRepointedSeveralTimesBetweenRunsReadsEveryDay(times: Int) throws {
        let h = try RunHarness()
        func day(_ d: Int) -> String { "access-2026-12-0\(d).log" }
        // Older days, read by runs before this state (or never): never read again.
        try h.append(11, hour: 9, minute: 1, to: h.dir.path(day(3)))
        try h.append(13, hour: 9, minute: 2, to: h.dir.path(day(4)))
        try h.append(100, hour: 10, to: h.dir.path(day(5)))
        try point(h, to: day(5))
        #expect(try run(h) == 100)
        // Written after the run: 50 more to day 5, then 7, 40, 25 to days 6, 7, 8 as the link moves on.
        try h.append(50, hour: 10, minute: 15, to: h.dir.path(day(5)))
        let lines = [7, 40, 25]
        for k in 0..<times {
            try h.append(lines[k], hour: 10, minute: 20 + k, to: h.dir.path(day(6 + k)))
            try point(h, to: day(6 + k))
        }
        // Tomorrow's file, made ahead of time by another tool: read once the link names it.
        try h.append(3, hour: 10, minute: 40, to: h.dir.path(day(9)))
        let written = 150 + lines.prefix(times).reduce(0, +)
        #expect(try run(h) == written)
        let gaps = try h.gaps()
        #expect(gaps.isEmpty, "\(gaps)")
        // Late lines to each day left behind, read once more; then the link moves to day 9.
        for k in 0..<times { try h.append(2, hour: 10, minute: 45, to: h.dir.path(day(5 + k))) }
        #expect(try run(h) == written + 2 * times)
        try point(h, to: day(9))
        #expect(try run(h) == written + 2 * times + 3)
        #expect(try run(h) == written + 2 * times + 3)
        #expect(try h.gaps().isEmpty)
    }

    /// Issue 29 review: cronolog's `%d-%m-%Y` and `%m-%d-%Y` across a year's end: the file
    /// between was compared first run first (31 after 02) and lost without a gap (18 of 22).
    @Test(arguments: [
        ("access-31-12-2026.log", "access-01-01-2027.log", "access-02-01-2027.log"),
        ("access-12-31-2026.log", "access-01-01-2027.log", "access-01-02-2027.log"),
    ])
    func aDayFirstOrMonthFirstLinkAcrossTheYearsEndReadsTheDayBetween(old: String, between: String, current: String)
        throws
    {
        let h = try RunHarness()
        try h.append(10, hour: 10, to: h.dir.path(old))
        try point(h, to: old)
        #expect(try run(h) == 10)
        try h.append(4, hour: 10, minute: 20, to: h.dir.path(between))
        try point(h, to: between)
        try h.append(8, hour: 10, minute: 30, to: h.dir.path(current))
        try point(h, to: current)
        #expect(try run(h) == 22)
        #expect(try h.gaps().isEmpty)
    }

    /// When no name tells day from month (all 12 or less), a file there before the last run is
    /// never read (`access-06-11-2026.log` is 11 June read month first, between 12 May and 12
    /// August: it was read, 23 of 18), and one written since that is between in one reading
    /// only is named in a gap, not read.
    @Test func anAmbiguousDateReadsOnlyWhatIsBetweenEitherWay() throws {
        let h = try RunHarness()
        let older = h.dir.path("access-06-11-2026.log")
        try h.append(5, hour: 9, to: older)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -86400 * 30)], ofItemAtPath: older)
        try h.append(10, hour: 10, to: h.dir.path("access-05-12-2026.log"))
        try point(h, to: "access-05-12-2026.log")
        #expect(try run(h) == 10)
        for (day, lines) in [("06", 3), ("07", 3), ("08", 2)] {
            try h.append(lines, hour: 10, minute: 20, to: h.dir.path("access-\(day)-12-2026.log"))
            try point(h, to: "access-\(day)-12-2026.log")
        }
        #expect(try run(h) == 18)
        #expect(try h.gaps().isEmpty)
        // Written since the last run, and between only month first (1 September, between 12
        // August and 12 September; 9 January day first): named, not read.
        let written = h.dir.path("access-09-01-2026.log")
        try h.append(5, hour: 10, minute: 40, to: written)
        try h.append(1, hour: 10, minute: 41, to: h.dir.path("access-09-12-2026.log"))
        try point(h, to: "access-09-12-2026.log")
        #expect(try run(h) == 19)
        #expect(try h.gaps().compactMap { $0["file"] as? String } == [written])
    }

    /// Issue 29 review: a FIFO named like a target between the last one read and the current one
    /// was skipped without a word: it is named in a gap, once; the files around it are read.
    @Test func aFIFOBetweenTargetsIsNamed() throws {
        let h = try RunHarness()
        try h.append(10, hour: 10, to: h.dir.path("access-2026-12-05.log"))
        try point(h, to: "access-2026-12-05.log")
        #expect(try run(h) == 10)
        let fifo = h.dir.path("access-2026-12-06.log")
        #expect(mkfifo(fifo, 0o644) == 0)
        try h.append(4, hour: 10, minute: 20, to: h.dir.path("access-2026-12-07.log"))
        try point(h, to: "access-2026-12-07.log")
        #expect(try run(h) == 14)
        #expect(try h.gaps().compactMap { $0["file"] as? String } == [fifo])
        // Named once: the next run keeps the one gap, and adds none.
        #expect(try run(h) == 14)
        #expect(try h.gaps().compactMap { $0["file"] as? String } == [fifo])
    }

    /// A file named like the link's targets, between the last one read and the current one, that
    /// cannot be read: a gap that names it, once; the others are read. (Root reads a file of
    /// mode 000: uaaudit runs as nobody, who owns the directory and the files.)
    @Test(.requires(.root), .requires(.setpriv)) func anUnreadableFileBetweenTargetsIsAGap() throws {
        guard let launcher = PermissionFaultTests.launcher("run with a target nobody may read") else { return }
        let h = try RunHarness()
        func run() throws -> Int {
            let result = try h.run(now: Self.now, launcher: launcher)
            #expect(result.status == 0, "\(result.stderr)")
            return try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int)
        }
        func own(_ path: String) {
            #expect(lchown(path, PermissionFaultTests.nobody, PermissionFaultTests.nobody) == 0)
        }
        own(h.dir.url.path)
        try h.append(100, hour: 10, to: h.dir.path("access-2026-12-05.log"))
        try point(h, to: "access-2026-12-05.log")
        for name in ["access-2026-12-05.log", "access.log"] { own(h.dir.path(name)) }
        #expect(try run() == 100)
        let hidden = h.dir.path("access-2026-12-06.log")
        try h.append(7, hour: 10, minute: 20, to: hidden)
        #expect(chmod(hidden, 0) == 0)
        try h.append(40, hour: 10, minute: 21, to: h.dir.path("access-2026-12-07.log"))
        try h.append(25, hour: 10, minute: 22, to: h.dir.path("access-2026-12-08.log"))
        try point(h, to: "access-2026-12-08.log")
        for name in ["access-2026-12-06.log", "access-2026-12-07.log", "access-2026-12-08.log", "access.log"] {
            own(h.dir.path(name))
        }
        #expect(try run() == 165)
        let gaps = try h.gaps()
        #expect(gaps.compactMap { $0["file"] as? String } == [hidden])
        #expect(
            gaps.first?["reason"] as? String
                == "the log's symbolic link named this file between two runs (it is named like the link's targets, between the last one read and the current one), and it cannot open: Permission denied: its lines are not read"
        )
        #expect(try run() == 165)
        #expect(try h.gaps().count == 1)
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

    /// Issue 31: a user who may write the log directory swaps the live log for a link to a
    /// root-only file. root's run refuses it (exit 3, naming the link and its owner), reads
    /// nothing of the file, and the log is not advanced; a link root owns is followed.
    @Test(.requires(.root)) func aLiveLogLinkOfAnotherUserIsNotFollowed() throws {
        let user = try TestUser()
        let storage = try Scratch()
        let h = try RunHarness(storage: storage.url.path)
        let elsewhere = try Scratch()
        let secret = try elsewhere.write("shadow", "root:t31-hunter2-secret:20228:0:99999:7:::\n")
        #expect(chmod(secret, 0o600) == 0)
        try h.append(300, hour: 10)
        #expect(try run(h) == 300)
        // The user's doing: the live log replaced by their link to the secret.
        try FileManager.default.moveItem(atPath: h.log, toPath: h.dir.path("access.log.1"))
        try FileManager.default.createSymbolicLink(atPath: h.log, withDestinationPath: secret)
        #expect(lchown(h.log, user.uid, user.gid) == 0)
        let refused = try h.run(now: Self.now)
        #expect(refused.status == 3)
        #expect(
            refused.stderr.contains(
                "\(h.log): is a symbolic link (\(h.log)) owned by \(user.name) (uid \(user.uid)): run follows a live "
                    + "log's link only when root or the account running it owns it"))
        #expect(!refused.stderr.contains("t31-hunter2-secret"))
        let report = try String(contentsOfFile: h.report, encoding: .utf8)
        #expect(!report.contains("t31-hunter2-secret"))
        let state = try String(contentsOfFile: h.state, encoding: .utf8)
        #expect(!state.contains("t31-hunter2-secret"))
        // root's own link to a log the user owns (cronolog's dated file): followed.
        let dated = h.dir.path("access-2026-11-29.log")
        try FileManager.default.moveItem(atPath: h.dir.path("access.log.1"), toPath: dated)
        #expect(chown(dated, user.uid, user.gid) == 0)
        try FileManager.default.removeItem(atPath: h.log)
        try FileManager.default.createSymbolicLink(atPath: h.log, withDestinationPath: dated)
        try h.append(6, hour: 10, minute: 40, to: dated)
        let followed = try h.run(now: Self.now)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int) == 306)
    }

    /// Issue 31 review: a directory on the log's path (or the rotated directory) that is another
    /// user's link chooses what is read as much as the log's own link: exit 3, nothing read.
    @Test(.requires(.root)) func aDirectoryLinkOfAnotherUserOnTheLogsPathIsNotFollowed() throws {
        let user = try TestUser()
        let top = try Scratch()
        #expect(chown(top.url.path, user.uid, user.gid) == 0)
        let secrets = try Scratch()
        let secret = try secrets.write("access.log", "t31-dir-secret line\n")
        #expect(chmod(secret, 0o600) == 0)
        let logs = top.path("logs")
        try FileManager.default.createSymbolicLink(atPath: logs, withDestinationPath: secrets.url.path)
        #expect(lchown(logs, user.uid, user.gid) == 0)
        let out = try Scratch()
        let result = try Tool.run([
            "run", "-q", "--state", out.path("s.json"), "--out", out.path("r.json"), "--now", Self.now,
            logs + "/access.log",
        ])
        #expect(result.status == 3)
        #expect(
            result.stderr.contains(
                "\(logs)/access.log: is reached through a symbolic link (\(logs)) owned by \(user.name) (uid \(user.uid))"
            ))
        #expect(!result.stderr.contains("t31-dir-secret"))
        let report = (try? String(contentsOfFile: out.path("r.json"), encoding: .utf8)) ?? ""
        #expect(!report.contains("t31-dir-secret"))

        // The same link as --rotated-dir of a log root may read: exit 3 naming it.
        let h = try RunHarness(storage: out.url.path)
        try h.append(5, hour: 10)
        let old = h.dir.path("old")
        try FileManager.default.createSymbolicLink(atPath: old, withDestinationPath: secrets.url.path)
        #expect(lchown(old, user.uid, user.gid) == 0)
        let rotated = try h.run(now: Self.now, extra: ["--rotated-dir", "old"])
        #expect(rotated.status == 3)
        #expect(rotated.stderr.contains("its rotated directory \(old) is reached through a symbolic link (\(old))"))
    }
}
