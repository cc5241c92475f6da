import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `uaaudit run` keeps an open hour's clients in its state, so an hour read over several runs
/// counts each client once and still sees a client split across two runs.
@Suite struct RunInsightTests {
    static func line(_ addr: String, minute: Int, ua: String, status: Int = 200) -> String {
        "\(addr) - - [29/Nov/2026:10:\(String(format: "%02d", minute)):00 +0000] \"GET /api/v2/me HTTP/1.1\" "
            + "\(status) 2 \"-\" \"\(ua)\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\"\n"
    }

    @Test func aClientSplitAcrossTwoRunsIsCountedOnce() throws {
        let h = try RunHarness()
        try h.appendRaw(
            Self.line("10.9.0.1", minute: 1, ua: Lines.urlsession)
                + Self.line("10.9.0.2", minute: 2, ua: Lines.urlsession),
            to: h.log)
        #expect(try h.run(now: "2026-11-29T10:20:00Z").status == 0)
        try h.appendRaw(
            Self.line("10.9.0.1", minute: 21, ua: Lines.cfnetwork, status: 403)
                + Self.line("10.9.0.3", minute: 22, ua: Lines.cfnetwork, status: 403)
                + Self.line("10.9.0.2", minute: 23, ua: Lines.urlsession),
            to: h.log)
        #expect(try h.run(now: "2026-11-29T10:40:00Z").status == 0)
        var report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        var clients = try #require(report.hours.first?.clients)
        #expect((clients.app, clients.alert, clients.split) == (2, 2, 1))
        #expect(report.hours.first?.impact?["inconsistent"]?.s403 == 2)
        #expect(report.hours.first?.closed == false)
        #expect(try String(contentsOfFile: h.state, encoding: .utf8).contains("\"clients\" : \""))

        // Closed, the hour keeps its counts (the client set itself is dropped from the state).
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        clients = try #require(report.hours.first?.clients)
        #expect((clients.app, clients.alert, clients.split) == (2, 2, 1))
        #expect(report.hours.first?.closed == true)
        let state = try String(contentsOfFile: h.state, encoding: .utf8)
        #expect(state.contains("\"counts\""))
        #expect(!state.contains("\"clients\" : \""))
        // It keeps its report sample, so that its report still merges across hosts.
        #expect(clients.sample?.records()?.count == 3)
    }

    /// A split client's address is in no state file (CONTRACTS: client data), only its hash,
    /// unless the run shows keys; a later run that does not hashes what that one kept.
    @Test func clientAddressesStayOutOfTheState() throws {
        let h = try RunHarness()
        try h.appendRaw(
            Self.line("10.9.0.7", minute: 1, ua: Lines.urlsession)
                + Self.line("10.9.0.7", minute: 2, ua: Lines.cfnetwork),
            to: h.log)
        #expect(try h.run(now: "2026-11-29T10:20:00Z").status == 0)
        var report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        #expect(report.hours.first?.clients?.examples == [ClientSalt.standard.display("10.9.0.7")])
        #expect(try !String(contentsOfFile: h.state, encoding: .utf8).contains("10.9.0.7"))
        try h.appendRaw(
            Self.line("10.9.0.8", minute: 21, ua: Lines.urlsession)
                + Self.line("10.9.0.8", minute: 22, ua: Lines.cfnetwork),
            to: h.log)
        #expect(try h.run(now: "2026-11-29T10:30:00Z", extra: ["--show-client-keys"]).status == 0)
        report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        // Asked for, the new key is in full; the one already hashed cannot be shown again.
        #expect(report.hours.first?.clients?.examples == [ClientSalt.standard.display("10.9.0.7"), "10.9.0.8"])
        #expect(try String(contentsOfFile: h.state, encoding: .utf8).contains("10.9.0.8"))
        #expect(try h.run(now: "2026-11-29T10:40:00Z").status == 0)
        report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        #expect(report.hours.first?.clients?.examples == ["10.9.0.7", "10.9.0.8"].map(ClientSalt.standard.display))
        #expect(try !String(contentsOfFile: h.state, encoding: .utf8).contains("10.9.0.8"))
    }

    /// A run with another client salt than the state's: the hours counted before keep their
    /// counts, lose their sample and examples (their keys cannot be matched with the new
    /// salt's), and the run says so; the state records the salt's fingerprint.
    @Test func aChangedSaltKeepsTheCountsAndDropsTheSamples() throws {
        let h = try RunHarness()
        let salt = try h.dir.write("client.salt", "k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: salt)
        try h.appendRaw(
            Self.line("10.9.0.1", minute: 1, ua: Lines.urlsession)
                + Self.line("10.9.0.1", minute: 2, ua: Lines.cfnetwork),
            to: h.log)
        #expect(try h.run(now: "2026-11-29T10:20:00Z").status == 0)
        try h.appendRaw(Self.line("10.9.0.1", minute: 21, ua: Lines.cfnetwork), to: h.log)
        let second = try h.run(now: "2026-11-29T10:40:00Z", extra: ["--client-salt-file", salt])
        #expect(second.status == 0)
        #expect(
            second.stderr
                == "uaaudit: the client salt is not the one the state's hours were counted with: the split-client "
                + "figures of hour 2026-11-29T10:00:00+00:00 keep their counts but cannot be matched with later "
                + "clients or merged across hosts (a client seen again counts again)\n")
        let report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        let clients = try #require(report.hours.first?.clients)
        // The one client counted before and again after the change: counted twice, as said.
        #expect((clients.app, clients.alert, clients.split) == (1, 2, 1))
        #expect(clients.sample == nil)
        #expect(clients.examples == [])
        let salted = ClientSalt(bytes: Array("k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf".utf8))
        #expect(report.clientSalt == salted.fingerprint)
        let state = try String(contentsOfFile: h.state, encoding: .utf8)
        #expect(state.contains("\"client_salt\" : \"\(salted.fingerprint)\""))
        #expect(!state.contains("k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf"))
        // The same salt again: nothing to say.
        #expect(try h.run(now: "2026-11-29T10:50:00Z", extra: ["--client-salt-file", salt]).stderr == "")
    }
}
