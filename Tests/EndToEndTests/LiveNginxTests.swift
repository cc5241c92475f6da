import Foundation
import Testing

/// Starts a real nginx on 127.0.0.1 (SampleLogs/make-samples.sh), sends it requests, and audits
/// the logs it just wrote against what the script sent.
@Suite struct LiveNginxTests {
    static func nginxPath() -> String? {
        ExternalTool.locate(.nginx)
    }

    static let required = ProcessInfo.processInfo.environment["UAAUDIT_REQUIRE_SERVERS"] == "1"

    @Test(.requires(.nginx)) func auditsTheLogsARealNginxJustWrote() throws {
        guard Self.nginxPath() != nil else {
            let message =
                "NGINX IS NOT INSTALLED: the live nginx test is SKIPPED. Install it (scripts/install-deps.sh)."
            print("\n*** \(message) ***\n")
            if Self.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
            return
        }
        let dir = try Scratch()
        let script = Process()
        script.executableURL = Tool.repoRoot.appendingPathComponent("SampleLogs/make-samples.sh")
        script.arguments = [dir.url.path]
        var env = ProcessInfo.processInfo.environment
        env["SAMPLES_FAKETIME"] = "0"
        script.environment = env
        let log = FileHandle(forWritingAtPath: "/dev/null")
        script.standardOutput = log
        try script.run()
        script.waitUntilExit()
        try #require(script.terminationStatus == 0, "make-samples.sh failed")

        let manifest = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("manifest.json")))
                as? [String: Any])
        let files = try #require(manifest["files"] as? [String: Any])
        let conf = Tool.repoRoot.appendingPathComponent("SampleLogs/nginx.conf").path
        let cases: [(String, [String])] = [
            ("ua_log.log", []), ("ua_log.log.gz", []), ("malformed.log", []),
            ("combined.log", ["--format", "combined"]),
            ("ua_log_json.log", ["--nginx-conf", conf, "--format", "ua_log_json"]),
        ]
        for (file, options) in cases {
            let entry = try #require(files[file] as? [String: Any])
            let result = try Tool.run(["scan", "--json"] + options + [file], directory: dir.url)
            #expect(result.status == 0, "\(file): \(result.stderr)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
            let totals = try #require(report["totals"] as? [String: Any])
            let expected = try #require(entry["expected_classes"] as? [String: Int])
            #expect(totals["classes"] as? [String: Int] == expected, "\(file)")
            #expect(totals["lines"] as? Int == entry["lines"] as? Int, "\(file)")
            #expect(totals["malformed"] as? Int == (entry["malformed_lines"] as? Int ?? 0), "\(file)")
            #expect(expected.values.reduce(0, +) >= 12)
        }
    }
}
