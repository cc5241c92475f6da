import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A real nginx that whitelists the app's UAs on /api/ (403 otherwise), and clients on
/// different loopback addresses, some with an X-Device-Id: the split clients, the 403s and
/// the paths uaaudit reports must be exactly those the clients caused.
@Suite(.serialized) struct LiveNginxInsightTests {
    static let format =
        #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "#
        + #""$http_user_agent" dev="$http_x_device_id""#

    /// The whitelist an operator puts in front of the API: only the app's own UA prefix passes.
    static let locations = #"""
        location /api/ {
            if ($http_user_agent !~ '^MyApp/[0-9]+\.[0-9]+\.[0-9]+ \(iPhone;') { return 403; }
            return 200 "api\n";
        }
        location / { return 200 "page\n"; }
        """#

    static let webview =
        "MyApp/5.12.1 (iPhone; iPhone15,3; iOS 17_4) Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) "
        + "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1"
    static let urlsession = "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
    static let cfnetwork = "YourSDK/1.0 com.apple.CFNetwork/1494.0.7"
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/17.2 Mobile/15E148 Safari/604.1"

    /// (source address, device id or nil, UA, path, the status the whitelist must give).
    static let requests: [(from: String, device: String?, ua: String, path: String, status: Int)] = [
        // Device A: WKWebView login page, URLSession API call, then an old SDK's calls refused: split.
        ("127.0.0.2", "A", webview, "/app/home", 200),
        ("127.0.0.2", "A", urlsession, "/api/v2/me", 200),
        ("127.0.0.2", "A", cfnetwork, "/api/v2/feed?page=1", 403),
        ("127.0.0.2", "A", cfnetwork, "/api/v2/feed?page=2", 403),
        // Device B: only the app's URLSession.
        ("127.0.0.3", "B", urlsession, "/api/v2/me", 200),
        ("127.0.0.3", "B", urlsession, "/api/v2/me", 200),
        ("127.0.0.3", "B", urlsession, "/api/v2/me", 200),
        // Device C: only a browser without the app's UA (inconsistent, never the app's own).
        ("127.0.0.4", "C", safari, "/api/v2/me", 403),
        ("127.0.0.4", "C", safari, "/app/home", 200),
        // Device D: WKWebView, then a login with a bare browser engine UA: split.
        ("127.0.0.5", "D", webview, "/app/home", 200),
        ("127.0.0.5", "D", safari, "/api/login", 403),
        // Two devices behind one NAT address: split by address, not by device.
        ("127.0.0.6", "E1", urlsession, "/api/v2/me", 200),
        ("127.0.0.6", "E2", cfnetwork, "/api/v2/me", 403),
        // No device id at all: split by address; by device there is no key to count.
        ("127.0.0.7", nil, urlsession, "/api/v2/me", 200),
        ("127.0.0.7", nil, cfnetwork, "/api/v2/me?x=%41", 403),
    ]

    /// Starts nginx, sends every request (checking the status nginx gave), returns the log.
    static func log(in dir: Scratch) throws -> String? {
        guard
            let binary = ExternalTool.find(.nginx, test: "the live nginx insight test")
        else { return nil }
        let nginx = try LiveNginx(
            binary: binary, logFormats: "log_format devices '\(format)';",
            accessLogs: "access_log LOGS/access.log devices;", locations: locations)
        for r in requests {
            let status = try nginx.request(
                r.path, ua: r.ua, from: r.from, headers: r.device.map { ["X-Device-Id: \($0)"] } ?? [])
            #expect(status == r.status, "\(r.from) \(r.path)")
        }
        nginx.waitForLines(requests.count, in: [nginx.log])
        let text = try String(contentsOfFile: nginx.log, encoding: .utf8)
        return try dir.write("access.log", text)
    }

    @Test(.requires(.nginx)) func splitClientsAnd403sAreExactlyThoseTheClientsCaused() throws {
        let dir = try Scratch()
        guard let log = try Self.log(in: dir) else { return }
        let byAddress = try Tool.run(["scan", "--json", "--log-format", Self.format, log])
        #expect(byAddress.status == 0, "\(byAddress.stderr)")
        let report = try ReportEncoding.decode(byAddress.stdout)
        try #require(report.hours.count == 1, "the requests took more than one hour: \(report.hours.map(\.hour))")
        let hour = report.hours[0]
        #expect(report.totals.lines == 15 && report.totals.malformed == 0)
        #expect(hour.classes["inconsistent"] == 7)

        // Does it hurt: 6 of the 7 inconsistent requests were refused by the whitelist.
        let impact = try #require(hour.impact?["inconsistent"])
        #expect(impact == StatusCounts(s2xx: 1, s4xx: 6, s403: 6))
        #expect(hour.impact?["urlsession"] == StatusCounts(s2xx: 6))
        #expect(hour.impact?["webview"] == StatusCounts(s2xx: 2))
        #expect(
            hour.topPaths == [
                Report.PathEntry(path: "/api/v2/me", count: 3, rejected: 3),
                Report.PathEntry(path: "/api/v2/feed", count: 2, rejected: 2),
                Report.PathEntry(path: "/api/login", count: 1, rejected: 1),
                Report.PathEntry(path: "/app/home", count: 1, rejected: 0),
            ])

        // Is it the same users: by address .2 .5 .6 .7 are split; .3 is app only, .4 alert only.
        let clients = try #require(hour.clients)
        #expect(clients.key == "$remote_addr")
        #expect((clients.app, clients.alert, clients.split) == (5, 5, 4))
        #expect(clients.exact && clients.splitShare == 0.8)
        #expect(clients.examples.count == 3)
        #expect(clients.examples.allSatisfy { $0.hasPrefix("#") && $0.count == 13 })
        #expect(clients.examples[0] == ClientSalt.standard.display("127.0.0.2"))

        // By device: A and D are split; E1 and E2 are two devices; the request without an id has no key.
        let byDevice = try Tool.run(
            [
                "scan", "--json", "--log-format", Self.format, "--client-key", "$http_x_device_id",
                "--show-client-keys", log,
            ])
        let device = try #require(try ReportEncoding.decode(byDevice.stdout).hours.first?.clients)
        #expect(device.key == "$http_x_device_id")
        #expect((device.app, device.alert, device.split) == (4, 4, 2))
        #expect(device.examples == ["A", "D"])

        // The human summary says the same.
        let summary = try Tool.run(["scan", "--log-format", Self.format, log]).out
        #expect(summary.contains("inconsistent 7, of which 6 got 403 and 0 got 401\n"))
        #expect(summary.contains(": 4 of 5 app clients (80.00%)\n"))
        #expect(summary.contains("       3       3  /api/v2/me\n"))
    }

    @Test(.requires(.nginx)) func theAlertMessageSaysWhatItCostAndWhoIsSplit() throws {
        let dir = try Scratch()
        guard let log = try Self.log(in: dir) else { return }
        let receiver = try WebhookReceiver(routes: ["/wecom": [.json(#"{"errcode":0,"errmsg":"ok"}"#)]])
        let result = try Tool.run(
            [
                "scan", "-q", "--log-format", Self.format, "--min-requests", "10", "--host", "web-1",
                "--webhook", "\(receiver.baseURL)/wecom?key=K", "--webhook-kind", "wecom", log,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try receiver.requests()
        try #require(requests.count == 1)
        let payload = try JSONSerialization.jsonObject(with: Data(requests[0].body)) as? [String: Any]
        let text = try #require((payload?["markdown"] as? [String: Any])?["content"] as? String)
        #expect(text.contains("inconsistent 7, of which 6 got 403 and 0 got 401"))
        #expect(
            text.contains("paths: /api/v2/me 3 (3 refused) · /api/v2/feed 2 (2 refused) · /api/login 1 (1 refused)"))
        #expect(text.contains("split clients: 4 of 5 app clients (80%) by $remote_addr"))
    }
}
