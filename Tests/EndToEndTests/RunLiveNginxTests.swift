import Foundation
import Testing

/// `uaaudit run` on the log of a real nginx (Debian's package, on 127.0.0.1) across
/// `mv access.log access.log.1 && nginx -s reopen`, with runs in between.
@Suite struct RunLiveNginxTests {
    @Test(.requires(.nginx)) func rotationUnderARealNginxLosesAndDoublesNothing() throws {
        guard let binary = LiveNginxTests.nginxPath() else {
            let message =
                "NGINX IS NOT INSTALLED: the live nginx rotation test is SKIPPED. Install it (scripts/install-deps.sh)."
            print("\n*** \(message) ***\n")
            if LiveNginxTests.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
            return
        }
        let nginx = try LiveNginx(binary: binary)
        let state = nginx.dir.path("state.json")
        let report = nginx.dir.path("report.json")
        func run() throws -> [String: Int] {
            let result = try Tool.run(["run", "-q", "--state", state, "--out", report, "--host", "t", nginx.log])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try unwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let totals = try unwrap(json["totals"] as? [String: Any])
            #expect((json["gaps"] as? [Any])?.isEmpty ?? true)
            return try unwrap(totals["classes"] as? [String: Int]).filter { $0.value > 0 }
        }
        try nginx.send(30, ua: Lines.urlsession)
        nginx.waitForLines(30, in: [nginx.log])
        #expect(try run() == ["urlsession": 30])
        try nginx.send(12, ua: Lines.cfnetwork)
        try FileManager.default.moveItem(atPath: nginx.log, toPath: nginx.log + ".1")
        try nginx.send(5, ua: "curl/8.0")  // still written to access.log.1 until the reopen
        try nginx.control(["-s", "reopen"])
        nginx.waitForLines(47, in: [nginx.log + ".1"])
        usleep(300_000)  // the reopen reaches the workers
        try nginx.send(20, ua: Lines.urlsession)
        nginx.waitForLines(67, in: [nginx.log, nginx.log + ".1"])
        #expect(try run() == ["urlsession": 50, "inconsistent": 12, "other": 5])
        try nginx.send(8, ua: "-")
        nginx.waitForLines(75, in: [nginx.log, nginx.log + ".1"])
        #expect(try run() == ["urlsession": 50, "inconsistent": 12, "other": 5, "missing": 8])
    }
}
