import Foundation
import Testing

/// A log whose permissions keep uaaudit out. Root reads any file whatever its mode, so uaaudit
/// runs as `nobody` (`setpriv`); without setpriv or root the runner reports the tests as skipped.
@Suite struct PermissionFaultTests {
    static let nobody: UInt32 = 65534

    /// `setpriv` to run as nobody, or nil after a loud message (a failure in CI).
    static func launcher(_ test: String) -> [String]? {
        guard Requirement.root.isPresent else {
            FileHandle.standardError.write(
                Data("\n*** NOT ROOT: \(test) is SKIPPED (it needs to run uaaudit as nobody) ***\n".utf8))
            if ExternalTool.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but not root: \(test)") }
            return nil
        }
        guard let setpriv = ExternalTool.find(.setpriv, test: test) else { return nil }
        return [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
    }

    static func chmod(_ path: String, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    @Test(.requires(.root), .requires(.setpriv)) func aScanReportsTheLogItMayNotOpenAndAuditsTheOthers() throws {
        guard let launcher = Self.launcher("scan of a log nobody may read") else { return }
        let dir = try Scratch()
        let closed = try dir.write("closed.log", Lines.uaLog(ua: Lines.cfnetwork) + "\n")
        let open = try dir.write("open.log", String(repeating: Lines.uaLog(ua: Lines.urlsession) + "\n", count: 3))
        try Self.chmod(closed, 0o600)
        let result = try Tool.run(["scan", "--json", closed, open], launcher: launcher)
        #expect(result.status == 3)
        #expect(result.stderr == "uaaudit: \(closed): cannot open: Permission denied\n")
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let sources = try unwrap(report["sources"] as? [[String: Any]])
        #expect(sources.map { $0["error"] as? String } == ["cannot open: Permission denied", nil])
        #expect(sources.map { $0["lines"] as? Int } == [0, 3])
        let totals = try unwrap(report["totals"] as? [String: Any])
        #expect((totals["classes"] as? [String: Int])?.filter { $0.value > 0 } == ["urlsession": 3])
    }

    @Test(.requires(.root), .requires(.setpriv)) func aRunWaitsForALogItMayNotReadAndCountsItOnceWhenItMay() throws {
        guard let launcher = Self.launcher("run with a log nobody may read") else { return }
        let h = try RunHarness()
        try FileManager.default.setAttributes(
            [.ownerAccountID: Self.nobody, .groupOwnerAccountID: Self.nobody], ofItemAtPath: h.dir.url.path)
        try h.append(10, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z", launcher: launcher).status == 0)
        let state = try contents(h.state)

        try h.append(5, hour: 10, minute: 20)
        try Self.chmod(h.log, 0o600)
        let denied = try h.run(now: "2026-11-29T10:40:00Z", launcher: launcher)
        #expect(denied.status == 3)
        #expect(
            denied.stderr
                == "uaaudit: \(h.log): cannot open: Permission denied; that log was not advanced and will be read again\n"
        )
        let after = try unwrap(JSONSerialization.jsonObject(with: Data(contents(h.state))) as? [String: Any])
        let before = try unwrap(JSONSerialization.jsonObject(with: Data(state)) as? [String: Any])
        #expect(
            NSDictionary(dictionary: after["logs"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: before["logs"] as? [String: Any] ?? [:]))
        #expect((after["gaps"] as? [Any])?.count == 0)

        try Self.chmod(h.log, 0o644)
        #expect(try h.run(now: "2026-11-29T10:50:00Z", launcher: launcher).status == 0)
        #expect(try h.reportedClasses() == ["urlsession": 15])
        #expect(try h.gaps().isEmpty)
    }

    /// logrotate makes a file as root with mode 0600 and gives it its owner and mode a moment
    /// later: the new log (`create 0640 www-data adm`) and the new `.gz` (`compress`). A run in
    /// between waits for the file, as for a log not yet created, instead of failing on it.
    @Test(.requires(.root), .requires(.setpriv), arguments: ["the new log", "the new .gz"])
    func aRunWaitsForTheModeLogrotateGivesAFile(file: String) throws {
        guard let nobody = Self.launcher("run while logrotate makes \(file)") else { return }
        let h = try RunHarness()
        try FileManager.default.setAttributes(
            [.ownerAccountID: Self.nobody, .groupOwnerAccountID: Self.nobody], ofItemAtPath: h.dir.url.path)
        try h.append(10, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z", launcher: nobody).status == 0)
        try h.append(4, hour: 10, minute: 40, cls: "other")
        try h.move("access.log", "access.log.1")
        try h.append(6, hour: 10, minute: 50)
        var closed = h.log
        if file == "the new .gz" {
            try h.gzip("access.log.1")
            closed = h.dir.path("access.log.1.gz")
        }
        try Self.chmod(closed, 0o600)
        // The mode comes 150 ms after the run starts (sh runs as root; uaaudit as nobody).
        let launcher = ["/bin/sh", "-c", "(sleep 0.15; chmod 644 '\(closed)') & exec \"$@\"", "sh"] + nobody
        let result = try h.run(now: "2026-11-29T10:55:00Z", launcher: launcher)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(try h.reportedClasses() == ["urlsession": 16, "other": 4])
        #expect(try h.gaps().isEmpty)
    }

    @Test(.requires(.root), .requires(.setpriv)) func aStateNobodyMayReachIsSaidToBeSoNotToBeMissing() throws {
        guard let launcher = Self.launcher("state show of a state nobody may reach") else { return }
        let h = try RunHarness()
        try h.append(3, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z").status == 0)
        let state = try contents(h.state)
        let dir = (h.state as NSString).deletingLastPathComponent
        try Self.chmod(dir, 0o700)
        let advice =
            "it was left as it is (give the user that runs uaaudit access to it and its directory; do not move it away: a fresh state reads every log from its start again)"
        let show = try Tool.run(["state", "show", "--state", h.state], launcher: launcher)
        #expect(show.status == 2)
        #expect(show.stderr == "uaaudit: state file \(h.state): cannot stat: Permission denied; \(advice)\n")
        try Self.chmod(dir, 0o755)
        #expect(try contents(h.state) == state)
    }
}
