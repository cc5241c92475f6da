import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `uaaudit alert test` through the built binary.
@Suite struct AlertTestCommandTests {
    typealias Reply = WebhookReceiver.Reply

    @Test func saysPerChannelWhetherTheTestMessageWasDelivered() throws {
        let receiver = try WebhookReceiver(routes: [
            "/bad": [.json(#"{"errcode":93000,"errmsg":"invalid webhook url"}"#)],
            "/slack": [Reply(status: 200, body: "ok")],
        ])
        let base = receiver.baseURL
        let result = try Tool.run([
            "alert", "test", "--host", "web-1", "--webhook", "\(base)/bad?key=KEY-SECRET-E2E", "--webhook-kind",
            "wecom",
            "--webhook", "\(base)/slack", "--webhook-kind", "slack",
        ])
        #expect(result.status == 4)
        #expect(
            result.out == """
                not delivered to wecom \(Redaction.url(base + "/bad?key=KEY-SECRET-E2E")) (1 attempt): errcode 93000 invalid webhook url
                delivered to slack \(Redaction.url(base + "/slack")) (1 attempt)

                """)
        #expect(result.stderr == "")
        let requests = try receiver.requests()
        #expect(requests.count == 2)
        // SOURCE_DATE_EPOCH=0 (set by Tool.run) makes the test message reproducible.
        #expect(
            requests[1].text
                == #"{"text":"*uaaudit test message from web-1*\n\nThis is a test of the alert channel, sent by uaaudit alert test at 1970-01-01T00:00:00Z. No action is needed.\n\nid "#
                + "\(requests[1].text.suffix(18))")
        #expect(requests[1].text.hasSuffix("\"}"))
        #expect(!result.out.contains("KEY-SECRET-E2E"))
    }

    /// --webhook-url-env and --webhook-url-file: the URL, token and all, reaches the receiver
    /// from a variable or a file and is never on the command line (which ps shows).
    @Test func theURLFromAVariableOrAFileIsDeliveredAndNeverInArgv() throws {
        let receiver = try WebhookReceiver(routes: [
            "/env": [Reply(status: 200)], "/file": [Reply(status: 200)],
        ])
        let base = receiver.baseURL
        let dir = try Scratch()
        let file = try dir.write("hook.url", "\(base)/file?key=FILE-TOKEN-E2E\n")
        let args = [
            "alert", "test", "--webhook-url-env", "UAAUDIT_TEST_HOOK", "--webhook-kind", "generic",
            "--webhook-url-file", file, "--webhook-kind", "generic",
        ]
        let result = try Tool.run(args, environment: ["UAAUDIT_TEST_HOOK": "\(base)/env?key=ENV-TOKEN-E2E"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.out == """
                delivered to generic \(Redaction.url(base + "/env?key=ENV-TOKEN-E2E")) (1 attempt)
                delivered to generic \(Redaction.url(base + "/file?key=FILE-TOKEN-E2E")) (1 attempt)

                """)
        #expect(try receiver.requests().map(\.path) == ["/env?key=ENV-TOKEN-E2E", "/file?key=FILE-TOKEN-E2E"])
        for token in ["ENV-TOKEN-E2E", "FILE-TOKEN-E2E"] {
            #expect(!args.joined(separator: " ").contains(token))
            #expect(!result.out.contains(token) && !result.stderr.contains(token))
        }
    }

    @Test func scanAlertsThroughAURLFile() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let dir = try Scratch()
        let log = try dir.write("access.log", ScanAlertTests.breachLog())
        let file = try dir.write("hook.url", "\(receiver.baseURL)/hook?key=FILE-TOKEN-E2E")
        let args = ["scan", "--quiet", "--webhook-url-file", file, "--webhook-kind", "generic", log]
        let result = try Tool.run(args)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try receiver.requests().map(\.path) == ["/hook?key=FILE-TOKEN-E2E"])
        #expect(!args.joined(separator: " ").contains("FILE-TOKEN-E2E"))
        #expect(!result.stderr.contains("FILE-TOKEN-E2E"))
    }

    @Test func everyChannelDeliveredExitsZero() throws {
        let receiver = try WebhookReceiver(routes: ["/g": [Reply(status: 204)]])
        let result = try Tool.run([
            "alert", "test", "--webhook", "\(receiver.baseURL)/g", "--webhook-kind", "generic",
        ])
        #expect(result.status == 0)
        #expect(result.out == "delivered to generic \(Redaction.url(receiver.baseURL + "/g")) (1 attempt)\n")
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try receiver.requests()[0].body)) as? [String: Any])
        #expect(body["test"] as? Bool == true)
        #expect(body["hours"] as? [Any] != nil && (body["hours"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        (
            ["alert"],
            "uaaudit: alert needs an action: uaaudit alert test --webhook URL ... (see uaaudit alert --help)\n"
        ),
        (["alert", "send"], "uaaudit: unknown alert action 'send'; the action is test (see uaaudit alert --help)\n"),
        (["alert", "test"], "uaaudit: alert test needs at least one --webhook URL, or --config FILE\n"),
        (
            ["alert", "test", "x", "--webhook", "http://h/"],
            "uaaudit: alert test takes no arguments, only options (got 'x')\n"
        ),
    ])
    func usageErrors(args: [String], message: String) throws {
        let result = try Tool.run(args)
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    @Test(arguments: [["alert", "--help"], ["alert", "test", "--help"], ["help", "alert"]])
    func helpFitsEightyColumnsAndListsExitCodes(args: [String]) throws {
        let result = try Tool.run(args)
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("Usage: uaaudit alert test --webhook URL"))
        #expect(result.out.contains("  4  an alert could not be delivered"))
        #expect(result.out.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    /// `--config FILE` tests every channel of run's config, with its host, and the command
    /// line's --webhook after them; exit 4 when one is not delivered.
    @Test func aConfigFilesChannelsAreEachSentATestMessage() throws {
        let receiver = try WebhookReceiver(routes: [
            "/g": [Reply(status: 204)],
            "/slack": [Reply(status: 500), Reply(status: 500), Reply(status: 500)],
            "/extra": [Reply(status: 204)],
        ])
        let base = receiver.baseURL
        let dir = try Scratch()
        let config = try dir.write(
            "uaaudit.json",
            """
            {"logs": ["/var/log/nginx/access.log"], "state": "/tmp/s.json", "host": "edge-7",
             "alerts": [{"kind": "generic", "url": "\(base)/g"},
                        {"kind": "slack", "url": "\(base)/slack"}]}
            """)
        let result = try Tool.run([
            "alert", "test", "--config", config, "--webhook-retries", "0", "--webhook", "\(base)/extra",
            "--webhook-kind", "generic",
        ])
        #expect(result.status == 4)
        #expect(
            result.out == """
                delivered to generic \(Redaction.url(base + "/g")) (1 attempt)
                not delivered to slack \(Redaction.url(base + "/slack")) (1 attempt): HTTP 500
                delivered to generic \(Redaction.url(base + "/extra")) (1 attempt)

                """)
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(try receiver.requests()[0].body)) as? [String: Any])
        #expect(first["host"] as? String == "edge-7")
        #expect(first["test"] as? Bool == true)
    }

    @Test func aConfigWithoutChannelsOrWithABadKeyIsAUsageError() throws {
        let dir = try Scratch()
        let empty = try dir.write("empty.json", #"{"logs": ["a.log"], "state": "s.json", "alerts": []}"#)
        var result = try Tool.run(["alert", "test", "--config", empty])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: config \(empty) has no channel in \"alerts\": nothing to test (add one, or give --webhook URL)\n"
        )
        let typo = try dir.write("typo.json", #"{"alert": [{"kind": "generic", "url": "http://127.0.0.1:1/"}]}"#)
        result = try Tool.run(["alert", "test", "--config", typo])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("uaaudit: config \(typo): unknown key 'alert'; did you mean 'alerts'?"))
        result = try Tool.run(["alert", "test", "--config", dir.path("missing.json")])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("uaaudit: config \(dir.path("missing.json")): cannot read"))
        #expect(result.out == "")
    }

    /// The whole config is checked as run checks it (run would exit 2 on these), before any
    /// message is sent; a URL given twice is a warning.
    @Test func aConfigThatRunWouldRefuseIsRefusedAndARepeatedChannelIsAWarning() throws {
        let receiver = try WebhookReceiver(routes: ["/g": [Reply(status: 204), Reply(status: 204)]])
        let base = receiver.baseURL
        let dir = try Scratch()
        let alerts = #""alerts": [{"kind": "generic", "url": "\#(base)/g"}]"#
        let bad: [(String, String)] = [
            (#""threshold": 0.5"#, "config threshold 0.5"),
            (#""rules": "\#(dir.path("missing-rules.json"))""#, dir.path("missing-rules.json")),
        ]
        for (key, named) in bad {
            let config = try dir.write(
                "bad.json", #"{"logs": ["a.log"], "state": "\#(dir.path("s.json"))", \#(key), \#(alerts)}"#)
            let result = try Tool.run(["alert", "test", "--config", config])
            #expect(result.status == 2, "\(key): \(result.out)")
            #expect(result.stderr.hasPrefix("uaaudit: ") && result.stderr.contains(named), "\(result.stderr)")
            #expect(result.out == "")
        }
        #expect(try receiver.requests().isEmpty)
        // The same robot in the config and on the command line: sent twice, with a warning.
        let config = try dir.write(
            "good.json", #"{"logs": ["a.log"], "state": "\#(dir.path("s.json"))", \#(alerts)}"#)
        // Only the owner may read a file with a webhook URL in it: otherwise that warning comes first.
        #expect(chmod(config, 0o600) == 0)
        let twice = try Tool.run([
            "alert", "test", "--config", config, "--webhook", "\(base)/g", "--webhook-kind", "generic",
        ])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(
            twice.stderr
                == "uaaudit: warning: generic \(Redaction.url(base + "/g")) is given 2 times: it gets every message 2 "
                + "times; list it once\n")
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
    }

    /// run may take the logs and the state from its command line, so a config without them is
    /// a config whose channels can be tested: it was refused with "no logs to read".
    @Test func aConfigWithoutLogsOrStateStillHasItsChannelsTested() throws {
        let receiver = try WebhookReceiver(routes: ["/g": [Reply(status: 204), Reply(status: 204)]])
        let dir = try Scratch()
        let alerts = #""alerts": [{"kind": "generic", "url": "\#(receiver.baseURL)/g"}]"#
        for body in [#"{"state": "\#(dir.path("s.json"))", \#(alerts)}"#, "{\(alerts)}"] {
            let config = try dir.write("c.json", body)
            #expect(chmod(config, 0o600) == 0)
            let result = try Tool.run(["alert", "test", "--config", config])
            #expect(result.status == 0, "\(body): \(result.stderr)")
            #expect(result.out == "delivered to generic \(Redaction.url(receiver.baseURL + "/g")) (1 attempt)\n")
            #expect(result.stderr == "")
        }
        #expect(try receiver.requests().count == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
    }
}
