import Foundation
import Testing

/// Issue 31: as root, an output, state or lock path that is another user's symbolic link in a
/// sticky, world-writable directory (as /tmp) is refused (exit 2, naming the link and its
/// owner), whatever fs.protected_symlinks says, and its target is neither replaced nor created.
@Suite(.serialized) struct PlantedLinkTests {
    /// A sticky, world-writable directory (like /tmp), a root-only file, and a user who plants.
    struct Place {
        let user: RunSymlinkedLogTests.TestUser
        let sticky: Scratch
        let secrets: Scratch
        let secret: String
        let missing: String

        init() throws {
            user = try RunSymlinkedLogTests.TestUser()
            sticky = try Scratch()
            #expect(chmod(sticky.url.path, 0o1777) == 0)
            secrets = try Scratch()
            secret = try secrets.write("secret", "root-only\n")
            #expect(chmod(secret, 0o600) == 0)
            missing = secrets.path("created-by-nobody")
        }

        /// `name` in the sticky directory, a link to `target` owned by the user.
        func plant(_ name: String, to target: String) throws -> String {
            let link = sticky.path(name)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            #expect(lchown(link, user.uid, user.gid) == 0)
            return link
        }

        func untouched() throws {
            #expect(try String(contentsOfFile: secret, encoding: .utf8) == "root-only\n")
            #expect(!FileManager.default.fileExists(atPath: missing))
        }

        func refusal(_ role: String, _ link: String) -> String {
            "uaaudit: \(role) \(link) is the symbolic link \(link), owned by \(user.name) (uid \(user.uid)) in the "
                + "sticky, world-writable directory \(sticky.url.path): uaaudit follows such a link only when you or "
                + "the directory's owner own it (as the kernel's protected_symlinks does), since another user may have "
                + "planted it; give a path in a directory only you can write, or remove the link (nothing was written)\n"
        }
    }

    static let log = Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log").path

    @Test(.requires(.root), arguments: [true, false])
    func everyOutputKindRefusesAPlantedLink(dangling: Bool) throws {
        let place = try Place()
        let target = dangling ? place.missing : place.secret
        let out = place.sticky
        func check(_ words: [String], role: String, link: String) throws {
            let result = try Tool.run(words)
            #expect(result.status == 2, "\(words)")
            #expect(result.stderr == place.refusal(role, link), "\(words)")
            try place.untouched()
        }
        let report = try place.plant("report.json", to: target)
        try check(["scan", "-q", "--out", report, Self.log], role: "--out", link: report)
        let html = try place.plant("report.html", to: target)
        try check(["scan", "-q", "--html", html, Self.log], role: "--html", link: html)
        let prom = try place.plant("u.prom", to: target)
        try check(["scan", "-q", "--prom", prom, Self.log], role: "--prom", link: prom)
        let state = try place.plant("state.json", to: target)
        let now = "2026-12-01T00:00:00Z"
        try check(
            ["run", "-q", "--state", state, "--out", out.path("r1.json"), "--now", now, Self.log], role: "--state",
            link: state)
        let lock = try place.plant("run.lock", to: target)
        try check(
            [
                "run", "-q", "--state", out.path("s.json"), "--lock", lock, "--out", out.path("r2.json"), "--now", now,
                Self.log,
            ],
            role: "--lock", link: lock)
        try check(
            ["run", "-q", "--state", out.path("s.json"), "--out", report, "--now", now, Self.log], role: "--out",
            link: report)
        let rules = try place.plant("rules.json", to: target)
        try check(["rules", "init", "--app", "Zorblat", "--out", rules], role: "--out", link: rules)
        // The run refused everything before its lock: no state was written either.
        #expect(!FileManager.default.fileExists(atPath: out.path("s.json")))
    }

    /// A directory link on the way is refused the same way, and doctor's config and rules too.
    @Test(.requires(.root)) func aPlantedDirectoryLinkOnThePathIsRefused() throws {
        let place = try Place()
        let dir = try place.plant("etc", to: place.secrets.url.path)
        let result = try Tool.run(["scan", "-q", "--out", dir + "/report.json", Self.log])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "uaaudit: --out \(dir)/report.json goes through the symbolic link \(dir), owned by \(place.user.name)"))
        #expect(!FileManager.default.fileExists(atPath: place.secrets.path("report.json")))
        let nginx = try place.secrets.write("nginx.conf", "events {}\nhttp { access_log \(Self.log) ua_log; }\n")
        let doctor = try Tool.run(["doctor", "--nginx-conf", nginx, "--write-config", dir + "/uaaudit.json"])
        #expect(doctor.status == 2)
        #expect(doctor.stderr.contains("--write-config \(dir)/uaaudit.json goes through the symbolic link \(dir)"))
        #expect(!FileManager.default.fileExists(atPath: place.secrets.path("uaaudit.json")))
        #expect(!FileManager.default.fileExists(atPath: place.secrets.path("rules.json")))
    }

    /// Links the rule follows: one the caller owns in the sticky directory, and another user's
    /// link in a directory that is not sticky (only its writers could have put it there).
    @Test(.requires(.root)) func linksTheCallerMayTrustAreFollowed() throws {
        let place = try Place()
        let mine = place.sticky.path("mine.json")
        try FileManager.default.createSymbolicLink(atPath: mine, withDestinationPath: place.secrets.path("a.json"))
        #expect(try Tool.run(["scan", "-q", "--out", mine, Self.log]).status == 0)
        #expect(FileManager.default.fileExists(atPath: place.secrets.path("a.json")))
        let plain = try Scratch()
        let theirs = plain.path("theirs.json")
        try FileManager.default.createSymbolicLink(atPath: theirs, withDestinationPath: place.secrets.path("b.json"))
        #expect(lchown(theirs, place.user.uid, place.user.gid) == 0)
        #expect(try Tool.run(["scan", "-q", "--out", theirs, Self.log]).status == 0)
        #expect(FileManager.default.fileExists(atPath: place.secrets.path("b.json")))
    }
}
