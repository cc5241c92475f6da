import Foundation
import Testing

/// Formats other than ua_log, written by a real nginx: `$time_iso8601`, `$msec` with the UA
/// last and unquoted, and an `escape=json` JSON line; each read with `--nginx-conf`.
@Suite struct LiveNginxFormatsTests {
    static let formats = """
        log_format iso '$time_iso8601 $remote_addr "$request" $status "$http_user_agent" $request_time';
        log_format msec '$msec|$status|$http_user_agent';
        log_format js escape=json '{"time":"$time_iso8601","ua":"$http_user_agent","status":$status,'
                                  '"req":"$request","user":"$remote_user"}';
        """

    @Test(.requires(.nginx)) func isoMsecAndJSONLinesParseAndCountWhatWasSent() throws {
        guard let binary = LiveNginxTests.nginxPath() else {
            let message =
                "NGINX IS NOT INSTALLED: the live nginx formats test is SKIPPED. Install it (scripts/install-deps.sh)."
            print("\n*** \(message) ***\n")
            if LiveNginxTests.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
            return
        }
        let nginx = try LiveNginx(
            binary: binary, logFormats: Self.formats,
            accessLogs: "access_log LOGS/iso.log iso; access_log LOGS/msec.log msec; access_log LOGS/js.log js;")
        let conf = try nginx.dir.write("formats.conf", "http {\n\(Self.formats)\n}\n")
        try nginx.send(3, ua: Lines.urlsession)
        try nginx.send(1, ua: "X \"quoted\" com.apple.CFNetwork \\ back|pipe")  // quote, backslash, the msec separator
        try nginx.send(2, ua: "tab\there")
        try nginx.send(1, ua: "")  // curl -A "" sends no User-Agent header
        let logs = ["iso", "msec", "js"].map { nginx.dir.path("logs/\($0).log") }
        nginx.waitForLines(7 * 3, in: logs)
        for name in ["iso", "msec", "js"] {
            let result = try Tool.run(
                ["scan", "--json", "--nginx-conf", conf, "--format", name, nginx.dir.path("logs/\(name).log")])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
            let totals = try unwrap(report["totals"] as? [String: Any])
            #expect(totals["malformed"] as? Int == 0, "\(name)")
            let classes = try unwrap(totals["classes"] as? [String: Int]).filter { $0.value > 0 }
            #expect(classes == ["urlsession": 3, "inconsistent": 1, "other": 2, "missing": 1], "\(name)")
            // Every request was made in the last minute: its hour starts at most an hour ago.
            let hours = try unwrap(report["hours"] as? [[String: Any]]).compactMap { $0["hour"] as? String }
            #expect(!hours.isEmpty && hours.count <= 2, "\(name): \(hours)")
            for hour in hours {
                let start = try unwrap(ISO8601DateFormatter().date(from: hour))
                #expect(
                    Date().timeIntervalSince(start) >= 0 && Date().timeIntervalSince(start) < 3700, "\(name): \(hour)")
            }
        }
    }
}
