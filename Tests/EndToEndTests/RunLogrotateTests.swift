import Foundation
import Testing

/// `uaaudit run` on a real nginx's log rotated by Debian's real logrotate, starting from the
/// empty log nginx creates: issue 11's first case, where an empty log's fingerprint matched
/// any file. Skipped (shown as such) without nginx or logrotate; with
/// `UAAUDIT_REQUIRE_SERVERS=1` (CI) a missing tool fails instead.
@Suite(.serialized) struct RunLogrotateTests {
    static let logrotate = ["/usr/sbin/logrotate", "/usr/bin/logrotate"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let ready = logrotate != nil && LiveNginxTests.nginxPath() != nil

    static let configurations: [(String, [String], Bool)] = [
        ("create + delaycompress", ["create", "compress", "delaycompress"], true),
        ("dateext", ["create", "dateext", "dateformat -%Y%m%d-%s", "compress", "delaycompress"], true),
        ("copytruncate", ["copytruncate"], false),
    ]

    @Test(
        .enabled(if: ready || ExternalTool.required, "needs nginx and logrotate (scripts/install-deps.sh)"),
        arguments: 0..<configurations.count)
    func anEmptyLogThenRotationsLosesAndDoublesNothing(configuration: Int) throws {
        guard let logrotate = Self.logrotate, let binary = LiveNginxTests.nginxPath() else {
            Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but nginx or logrotate is not installed (scripts/install-deps.sh)")
            return
        }
        let (_, directives, reopen) = Self.configurations[configuration]
        let nginx = try LiveNginx(binary: binary)
        var conf = "\(nginx.log) {\n    rotate 100\n" + directives.map { "    \($0)\n" }.joined()
        if reopen {
            conf += "    postrotate\n        kill -USR1 $(cat \(nginx.dir.path("nginx.pid")))\n    endscript\n"
        }
        let rotateConf = try nginx.dir.write("logrotate.conf", conf + "}\n")
        func rotate() throws {
            let result = try ExternalTool.run(logrotate, ["-f", "-s", nginx.dir.path("logrotate.status"), rotateConf])
            #expect(result.status == 0, "\(result.stderr)")
            usleep(300_000)  // the reopen reaches the workers
        }
        let state = nginx.dir.path("state.json")
        let report = nginx.dir.path("report.json")
        func run() throws -> Int {
            let result = try Tool.run(["run", "-q", "--state", state, "--out", report, "--host", "t", nginx.log])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try unwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            #expect((json["gaps"] as? [Any])?.isEmpty ?? true, "\(json["gaps"] ?? "")")
            return try unwrap((json["totals"] as? [String: Any])?["requests"] as? Int)
        }
        #expect(try run() == 0)  // the empty log nginx created
        try nginx.send(40, ua: Lines.urlsession)
        nginx.waitForLines(40, in: [nginx.log])
        try rotate()
        sleep(1)  // dateext names carry the second
        try nginx.send(30, ua: Lines.cfnetwork)
        try rotate()
        try nginx.send(10, ua: "curl/8.0")
        usleep(300_000)
        #expect(try run() == 80)
        try nginx.send(5, ua: "curl/8.0")
        usleep(300_000)
        #expect(try run() == 85)
    }
}
