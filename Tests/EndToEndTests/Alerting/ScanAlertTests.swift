import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `scan --webhook …` through the built binary, against a real receiver on 127.0.0.1.
@Suite struct ScanAlertTests {
    typealias Reply = WebhookReceiver.Reply

    static let malicious =
        #"**bold** <@all> <font color=\x22warning\x22>x</font> [link](http://evil) \x1B[31m\x07 com.apple.CFNetwork"#

    /// 151 requests at 17:00, 3 of them inconsistent (one the malicious UA): one breached hour.
    static func breachLog() -> String {
        CommandLineTests.alertLog() + Lines.uaLog(ua: malicious) + "\n"
    }

    static let secrets = [
        "KEY-SECRET-E2E", "TOKEN-SECRET-E2E", "DING-SIGNING-SECRET", "FEISHU-SIGNING-SECRET", "T0SECRET",
        "B0SECRET", "XXXXSECRET",
    ]

    static let ok: [String: [Reply]] = [
        "/wecom": [.json(#"{"errcode":0,"errmsg":"ok"}"#)],
        "/dingtalk": [.json(#"{"errcode":0,"errmsg":"ok"}"#)],
        "/feishu/hook/FEISHU-HOOK": [.json(#"{"code":0,"msg":"success"}"#)],
        "/services/T0SECRET/B0SECRET/XXXXSECRET": [Reply(status: 200, body: "ok")],
        "/generic": [Reply(status: 200)],
        "/am/api/v2/alerts": [Reply(status: 200)],
    ]

    static func allChannels(_ base: String, secretFile: String) -> [String] {
        [
            "--webhook", "\(base)/wecom?key=KEY-SECRET-E2E", "--webhook-kind", "wecom",
            "--webhook", "\(base)/dingtalk?access_token=TOKEN-SECRET-E2E", "--webhook-kind", "dingtalk",
            "--webhook-secret-env", "DING_SECRET",
            "--webhook", "\(base)/feishu/hook/FEISHU-HOOK", "--webhook-kind", "feishu",
            "--webhook-secret-file", secretFile,
            "--webhook", "\(base)/services/T0SECRET/B0SECRET/XXXXSECRET", "--webhook-kind", "slack",
            "--webhook", "\(base)/generic", "--webhook-kind", "generic",
            "--webhook", "\(base)/am", "--webhook-kind", "alertmanager",
        ]
    }

    static func expectNoSecret(_ texts: [String], _ label: String) {
        for text in texts {
            for secret in secrets { #expect(!text.contains(secret), "\(label): \(secret) leaked") }
        }
    }

    @Test func aBreachSendsOneMessageToEachChannelAndShowsNoSecret() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.breachLog())
        let secretFile = try dir.write("feishu.secret", "FEISHU-SIGNING-SECRET\n")
        // As a secret file should be (one others may read is warned about: SecretExposureTests).
        #expect(chmod(secretFile, 0o600) == 0)
        let out = dir.path("report.json")
        let result = try Tool.run(
            ["scan", "--json", "--out", out, "--host", "web-1"]
                + Self.allChannels(receiver.baseURL, secretFile: secretFile)
                + [log],
            environment: ["DING_SECRET": "DING-SIGNING-SECRET"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try receiver.requests()
        #expect(
            requests.map { $0.path.split(separator: "?")[0] } == [
                "/wecom", "/dingtalk", "/feishu/hook/FEISHU-HOOK", "/services/T0SECRET/B0SECRET/XXXXSECRET",
                "/generic", "/am/api/v2/alerts",
            ])
        let generic = try #require(try JSONSerialization.jsonObject(with: Data(requests[4].body)) as? [String: Any])
        let id = try #require(generic["id"] as? String)
        #expect((generic["hours"] as? [[String: Any]])?.map { $0["hour"] as? String } == ["2026-11-29T17:00:00+08:00"])
        let base = receiver.baseURL
        func shown(_ path: String) -> String { Redaction.url(base + path) }
        #expect(
            result.stderr == """
                uaaudit: alert \(id) delivered to wecom \(shown("/wecom?key=KEY-SECRET-E2E")) (1 attempt)
                uaaudit: alert \(id) delivered to dingtalk \(shown("/dingtalk?access_token=TOKEN-SECRET-E2E")) (1 attempt)
                uaaudit: alert \(id) delivered to feishu \(shown("/feishu/hook/FEISHU-HOOK")) (1 attempt)
                uaaudit: alert \(id) delivered to slack \(shown("/services/T0SECRET/B0SECRET/XXXXSECRET")) (1 attempt)
                uaaudit: alert \(id) delivered to generic \(shown("/generic")) (1 attempt)
                uaaudit: alert \(id) delivered to alertmanager \(shown("/am")) (1 attempt)

                """)
        let report = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
        Self.expectNoSecret([result.out, result.stderr, report], "scan output")

        // The hostile UA arrives inert in every chat message: WeCom markdown shows it in a
        // code span (markup characters as they are, <, >, @ as look-alikes), DingTalk with
        // every markup character replaced, Feishu as plain text, Slack in a code span with its
        // own escaping (docs/alerts.md).
        let wecom = requests[0].text
        #expect(
            wecom.contains(
                "`**bold** ‹＠all› ‹font color=\\\"warning\\\"›x‹/font› [link](http://evil) \\\\x1B[31m\\\\x07 "))
        #expect(
            requests[1].text.contains(
                "∗∗bold∗∗ ‹＠all› ‹font color=\\\"warning\\\"›x‹/font› ［link］(http:∕∕evil) \\\\x1B［31m\\\\x07"))
        #expect(requests[2].text.contains("**bold** ‹＠all› ‹font color=\\\"warning\\\"›x‹/font› [link](http:∕∕evil)"))
        #expect(
            requests[3].text.contains(
                "`**bold** &lt;@all&gt; &lt;font color=\\\"warning\\\"&gt;x&lt;/font&gt; [link](http://evil)"))
        #expect(wecom.contains("**2026-11-29 17:00+08:00**: 1.987% (3 of 151 requests)"))
        // Every message says where the report is and how to explain the hour.
        for request in requests.prefix(4) {
            #expect(request.text.contains("uaaudit explain 2026-11-29T17:00:00+08:00 \(out)"), "\(request.path)")
            for forbidden in ["<@all>", "<font", "\\u001b", "\\u0007"] {
                #expect(!request.text.contains(forbidden), "\(request.path): \(forbidden)")
            }
        }
        #expect(!requests[1].text.contains("[link]") && !requests[1].text.contains("http://evil"))
    }

    @Test func healthyHoursAndHoursUnderMinRequestsSendNothing() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let dir = try Scratch()
        let healthy = try dir.write(
            "healthy.log", (0..<300).map { _ in Lines.uaLog(ua: Lines.urlsession) }.joined(separator: "\n") + "\n")
        var sparseLines = (0..<40).map { _ in Lines.uaLog(ua: Lines.urlsession) }
        sparseLines += (0..<20).map { _ in Lines.uaLog(ua: Lines.cfnetwork) }
        let sparse = try dir.write("sparse.log", sparseLines.joined(separator: "\n") + "\n")
        for log in [healthy, sparse] {
            let result = try Tool.run(
                ["scan", "--json", "--webhook", "\(receiver.baseURL)/generic", "--webhook-kind", "generic", log])
            #expect(result.status == 0)
            #expect(result.stderr == "")
        }
        #expect(try receiver.requests().isEmpty)
        // The same log over min_requests does alert.
        let loud = try Tool.run(
            [
                "scan", "-q", "--min-requests", "50", "--webhook", "\(receiver.baseURL)/generic", "--webhook-kind",
                "generic",
                sparse,
            ])
        #expect(loud.status == 0)
        #expect(try receiver.requests().count == 1)
    }

    /// Without a report file, the message's command scans the logs again with the options that
    /// made the figures (relative paths made absolute), and gives the same hour.
    /// An HTML page (or metrics file) that cannot be written is exit 6, but the alert still
    /// goes out: an optional extra must not silence the alert.
    @Test func anUnwritableHTMLPageStillSendsTheAlert() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let dir = try Scratch()
        var lines = (0..<100).map { _ in Lines.uaLog(ua: Lines.urlsession) }
        lines += (0..<20).map { _ in Lines.uaLog(ua: Lines.cfnetwork) }
        let log = try dir.write("a.log", lines.joined(separator: "\n") + "\n")
        let html = dir.path("missing/x.html")
        let result = try Tool.run([
            "scan", "-q", "--html", html, "--webhook", "\(receiver.baseURL)/generic", "--webhook-kind", "generic", log,
        ])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("uaaudit: cannot write HTML report \(html): "), "\(result.stderr)")
        #expect(try receiver.requests().count == 1)
    }

    @Test func withoutAReportTheCommandNamesTheLogsAndTheOptions() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let dir = try Scratch()
        var lines = (0..<40).map { _ in Lines.uaLog(ua: Lines.urlsession) }
        lines += (0..<20).map { _ in Lines.uaLog(ua: Lines.cfnetwork) }
        _ = try dir.write("sparse log.log", lines.joined(separator: "\n") + "\n")
        let result = try Tool.run(
            [
                "scan", "-q", "--min-requests", "50", "--client-key", "none", "--threads", "1", "--webhook",
                "\(receiver.baseURL)/generic", "--webhook-kind", "generic", "sparse log.log",
            ], directory: dir.url)
        #expect(result.status == 0)
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try receiver.requests()[0].body)) as? [String: Any])
        #expect(body["report"] == nil)
        let log = dir.path("sparse log.log")
        #expect(
            body["explain"] as? [String: String] == [
                "2026-11-29T17:00:00+08:00":
                    "uaaudit explain 2026-11-29T17:00:00+08:00 --min-requests 50 --client-key none '\(log)'"
            ])
        let explained = try Tool.run([
            "explain", "2026-11-29T17:00:00+08:00", "--min-requests", "50", "--client-key", "none", log,
        ])
        #expect(explained.status == 0)
        #expect(
            explained.out.contains("inconsistent 20 of 60 requests = 33.33%; over 0.100%: ALERT"), "\(explained.out)")
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var replies: [Reply]?
        var options: [String]
        var reason: String
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "500", replies: [Reply(status: 500, body: "boom")], options: [], reason: "HTTP 500: boom"),
        Failure(
            name: "errcode", replies: [.json(#"{"errcode":93000,"errmsg":"invalid webhook url"}"#)], options: [],
            reason: "errcode 93000 invalid webhook url"),
        Failure(
            name: "slow", replies: [Reply(status: 200, body: #"{"errcode":0}"#, delay: 10)],
            options: ["--webhook-timeout", "0.5"], reason: "no answer within 0.5 s"),
        Failure(
            name: "refused", replies: nil, options: [],
            reason: "connection refused (check the URL's host and port, and that the receiver is running)"),
    ]

    @Test(arguments: failures)
    func aFailedDeliveryExitsFourAfterTheReportIsWritten(failure: Failure) throws {
        let receiver = try WebhookReceiver(routes: ["/wecom": failure.replies ?? []])
        let base = failure.replies == nil ? "http://127.0.0.1:\(try WebhookReceiver.refusingPort())" : receiver.baseURL
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.breachLog())
        let out = dir.path("report.json")
        let url = "\(base)/wecom?key=KEY-SECRET-E2E"
        let start = Date()
        let result = try Tool.run(
            [
                "scan", "--json", "--fail-on-alert", "--out", out, "--webhook", url, "--webhook-kind", "wecom",
                "--webhook-retries", "0",
            ]
                + failure.options + [log])
        #expect(Date().timeIntervalSince(start) < 6, "a 10 s answer was not waited for")
        #expect(result.status == 4)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("uaaudit: alert ") == true)
        #expect(
            lines.first?.hasSuffix("not delivered to wecom \(Redaction.url(url)) (1 attempt): \(failure.reason)")
                == true)
        // The report was written whole before delivery was tried.
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == result.stdout)
        let report = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
        Self.expectNoSecret([result.out, result.stderr, report], failure.name)
        #expect(try receiver.requests().count == (failure.replies == nil ? 0 : 1))
    }

    @Test func aRateLimitedWeComIsRetriedByTheBinary() throws {
        let receiver = try WebhookReceiver(routes: [
            "/cgi-bin/webhook/send": [
                .json(#"{"errcode":45009,"errmsg":"api freq out of limit"}"#), .json(#"{"errcode":0,"errmsg":"ok"}"#),
            ]
        ])
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.breachLog())
        let result = try Tool.run(
            [
                "scan", "--json", "--webhook", "\(receiver.baseURL)/cgi-bin/webhook/send?key=KEY-SECRET-E2E",
                "--webhook-kind", "wecom", log,
            ])
        #expect(result.status == 0)
        #expect(
            result.stderr.hasSuffix(
                "delivered to wecom \(Redaction.url(receiver.baseURL + "/cgi-bin/webhook/send?key=KEY-SECRET-E2E")) (2 attempts)\n"
            ))
        let times = try receiver.requests().map(\.time)
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= 0.95, "the first backoff is 1 s")
    }

    static let usageErrors: [([String], String)] = [
        (
            ["--webhook", "http://127.0.0.1:9/hooks/abc?key=KEY-SECRET-E2E"],
            "uaaudit: --webhook \(Redaction.url("http://127.0.0.1:9/hooks/abc?key=KEY-SECRET-E2E")): cannot tell which service this is; add --webhook-kind KIND after it (wecom, dingtalk, feishu, slack, generic, alertmanager)\n"
        ),
        (
            ["--webhook-kind", "slack", "--webhook", "https://hooks.slack.com/services/T0SECRET/B0SECRET/XXXXSECRET"],
            "uaaudit: --webhook-kind belongs to a channel: give it after the --webhook, --webhook-url-env or --webhook-url-file it is for\n"
        ),
        (
            [
                "--webhook", "https://oapi.dingtalk.com/robot/send?access_token=TOKEN-SECRET-E2E",
                "--webhook-secret-env", "NO_SUCH_VAR",
            ],
            "uaaudit: --webhook: environment variable NO_SUCH_VAR (the dingtalk signing secret) is not set or empty\n"
        ),
        (
            [
                "--webhook", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY-SECRET-E2E",
                "--webhook-secret-env", "X",
            ],
            "uaaudit: --webhook: a wecom webhook takes no signing secret (only dingtalk and feishu do)\n"
        ),
        (
            ["--webhook", "http://x/y", "--webhook-kind", "teams"],
            "uaaudit: --webhook-kind takes wecom, dingtalk, feishu, slack, generic, alertmanager, not 'teams'\n"
        ),
        (
            ["--webhook", "ftp://x/?key=KEY-SECRET-E2E", "--webhook-kind", "generic"],
            "uaaudit: --webhook: webhook URL \(Redaction.url("ftp://x/?key=KEY-SECRET-E2E")) is not an http:// or https:// URL with a host (a port from 1 to 65535, no spaces or control characters)\n"
        ),
        // A second review: a port out of range or a space failed only when sending (exit 4).
        (
            ["--webhook", "http://127.0.0.1:99999/TOKZ3", "--webhook-kind", "generic"],
            "uaaudit: --webhook: webhook URL http://127.0.0.1:99999/…#\(String(Redaction.url("http://127.0.0.1:99999/TOKZ3").suffix(6))) is not an http:// or https:// URL with a host (a port from 1 to 65535, no spaces or control characters)\n"
        ),
        (
            ["--webhook", "http://127.0.0.1:8080/a b", "--webhook-kind", "generic"],
            "uaaudit: --webhook: webhook URL \(Redaction.url("http://127.0.0.1:8080/a b")) is not an http:// or https:// URL with a host (a port from 1 to 65535, no spaces or control characters)\n"
        ),
        (
            ["--webhook", "http://x/y", "--webhook-kind", "slack", "--webhook-timeout", "0"],
            "uaaudit: --webhook-timeout takes seconds from 0 to 600, such as 10 or 2.5, not '0'\n"
        ),
    ]

    @Test(arguments: usageErrors)
    func badAlertOptionsAreUsageErrorsThatShowNoSecret(options: [String], message: String) throws {
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.breachLog())
        let result = try Tool.run(["scan", "-q"] + options + [log])
        #expect(result.status == 2)
        #expect(result.stderr == message)
        Self.expectNoSecret([result.stderr], "usage")
    }
}
