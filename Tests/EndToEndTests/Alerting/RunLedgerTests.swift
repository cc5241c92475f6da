import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The alert ledger through `uaaudit run`: a breached hour waits for a channel, follows the
/// channels configured now, is recorded not alerted when the config says metrics only, and
/// no secret of a channel reaches the state, `state show` or the metrics.
@Suite struct RunLedgerTests {
    typealias Reply = WebhookReceiver.Reply
    static let h10 = "2026-11-29T10:00:00+00:00"

    func breach(_ h: RunHarness) throws {
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
    }

    func hoursSent(_ receiver: WebhookReceiver, path: String) throws -> [String] {
        try receiver.requests().filter { $0.path.hasPrefix(path) }.flatMap { request -> [String] in
            let body = try unwrap(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            return (body["hours"] as? [[String: Any]] ?? []).compactMap { $0["hour"] as? String }
        }
    }

    @Test func aHandRunWithoutAChannelLeavesTheHourForTheCronJob() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let h = try RunHarness()
        try breach(h)
        let prom = h.dir.path("uaaudit.prom")
        #expect(try h.run(now: "2026-11-29T11:06:00Z", extra: ["--prom", prom]).status == 0)
        #expect(try h.ledgerHours("pending") == [Self.h10])
        #expect(try String(contentsOfFile: prom, encoding: .utf8).contains("\nuaaudit_alerts_pending 1\n"))
        let shown = try Tool.run(["state", "show", "--state", h.state])
        #expect(
            shown.out.contains("breached hours pending delivery: \n  \(Self.h10)  id \(try h.ledger()[Self.h10]!.id)\n")
        )
        // The same in JSON: the ledger's entry with its hour.
        let json = try Tool.run(["state", "show", "--json", "--state", h.state])
        let pending = try unwrap(
            (JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])?["alerts_pending"]
                as? [[String: Any]])
        #expect(pending.count == 1)
        #expect(pending.first?["hour"] as? String == Self.h10)
        #expect(pending.first?["id"] as? String == (try h.ledger()[Self.h10]!.id))
        #expect(pending.first?["status"] as? String == "pending")
        #expect(pending.first?["delivered_to"] as? [String] == [])
        // The cron job, with its channel, sends it.
        let hook = ["--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        #expect(try h.run(now: "2026-11-29T11:20:00Z", extra: hook).status == 0)
        #expect(try hoursSent(receiver, path: "/hook") == [Self.h10])
        #expect(try h.ledgerHours("delivered") == [Self.h10])
        #expect(try h.run(now: "2026-11-29T11:40:00Z", extra: hook).status == 0)
        #expect(try hoursSent(receiver, path: "/hook") == [Self.h10])
    }

    /// A run with no channel says on stderr how many breached hours wait and how to send them
    /// (or to say there is no channel on purpose); with --quiet it says nothing.
    @Test func aRunWithoutAChannelSaysTheHoursWaitForOne() throws {
        let h = try RunHarness()
        try breach(h)
        let args = [
            "run", "--state", h.state, "--out", h.report, "--now", "2026-11-29T11:06:00Z", "--host", "test-host", h.log,
        ]
        let loud = try Tool.run(args)
        #expect(loud.status == 0)
        #expect(
            loud.stderr
                == "uaaudit: 1 breached hour waits for an alert channel: give --webhook URL (or an \"alerts\" list in the config) to send it, or \"alerts\": [] in the config for metrics only\n"
        )
        #expect(AlertLedger.unconfiguredNotice(pending: 3).hasPrefix("3 breached hours wait for an alert channel: "))
        let quiet = try Tool.run(["run", "-q"] + args.dropFirst())
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
    }

    /// A query without `=`, a path segment and their JSON-escaped and percent-encoded forms,
    /// echoed by the server, reach neither stderr, the state nor `state show`.
    @Test func anEchoedQueryWithoutEqualsAndEscapedFormsNeverShow() throws {
        let answer = #"{"error":"no hook QUERYNAMESECRET123 at \/p\/SEG%2FSECRETxyz or /p/SEG/SECRETxyz"}"#
        let receiver = try WebhookReceiver(routes: ["/p/SEG%2FSECRETxyz": [Reply(status: 500, body: answer)]])
        let h = try RunHarness()
        try breach(h)
        let url = "\(receiver.baseURL)/p/SEG%2FSECRETxyz?QUERYNAMESECRET123"
        let run = try h.run(
            now: "2026-11-29T11:06:00Z",
            extra: ["--webhook", url, "--webhook-kind", "generic", "--webhook-retries", "0"])
        #expect(run.status == 4)
        let shown = try Tool.run(["state", "show", "--state", h.state])
        #expect(
            shown.out.contains(
                "last error: not delivered to generic \(Redaction.url(url)) (1 attempt): HTTP 500: {\"error\":\"no hook *** at *** or ***\"}\n"
            ))
        let state = try String(contentsOfFile: h.state, encoding: .utf8)
        for text in [run.stderr, run.out, state, shown.out] {
            for secret in ["QUERYNAMESECRET123", "SECRETxyz", "SEG%2F", "SEG/"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
    }

    /// 22 breached hours do not fit one Slack message (4000 bytes): one run sends them all,
    /// as several messages, each hour (by its short id) in exactly one, and the ledger has
    /// every hour delivered.
    @Test func aBacklogTooLongForOneSlackMessageIsSentWholeInOneRun() throws {
        let receiver = try WebhookReceiver(routes: ["/services/T/B/X": [Reply(status: 200, body: "ok")]])
        let h = try RunHarness()
        for hour in 0..<22 {
            try h.append(150, hour: hour)
            try h.append(2, hour: hour, minute: 30, cls: "inconsistent")
        }
        let hook = ["--webhook", "\(receiver.baseURL)/services/T/B/X", "--webhook-kind", "slack"]
        #expect(try h.run(now: "2026-11-29T23:06:00Z", extra: hook).status == 0)
        let ledger = try h.ledger()
        #expect(ledger.count == 22)
        #expect(ledger.values.allSatisfy { $0.status == "delivered" })
        let texts = try receiver.requests().map { request -> String in
            let body = try unwrap(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            return try unwrap(body["text"] as? String)
        }
        #expect(texts.map(\.utf8.count).allSatisfy { $0 <= 4000 })
        // Three messages since each hour carries its `uaaudit explain` command.
        #expect(texts.count == 3)
        #expect(!texts.contains { $0.contains("more hours not shown") })
        for (hour, entry) in ledger {
            #expect(texts.filter { $0.contains("id \(entry.id.prefix(8))") }.count == 1, "\(hour)")
        }
    }

    @Test func aCorrectedChannelURLGetsTheHourThatTheWrongOneRefused() throws {
        let receiver = try WebhookReceiver(routes: ["/wrong": [Reply(status: 404)], "/right": [Reply(status: 200)]])
        let h = try RunHarness()
        try breach(h)
        let wrong = ["--webhook", "\(receiver.baseURL)/wrong", "--webhook-kind", "generic", "--webhook-retries", "0"]
        let first = try h.run(now: "2026-11-29T11:06:00Z", extra: wrong)
        #expect(first.status == 4)
        #expect(
            first.stderr
                == "uaaudit: hours \(Self.h10): not delivered to generic \(Redaction.url(receiver.baseURL + "/wrong")) (1 attempt): HTTP 404 (check the URL: the service does not know this webhook); kept for the next run\n"
        )
        let right = ["--webhook", "\(receiver.baseURL)/right", "--webhook-kind", "generic"]
        #expect(try h.run(now: "2026-11-29T11:20:00Z", extra: right).status == 0)
        #expect(try hoursSent(receiver, path: "/wrong") == [Self.h10])
        #expect(try hoursSent(receiver, path: "/right") == [Self.h10])
        #expect(try h.ledgerHours("delivered") == [Self.h10])
    }

    @Test func anExplicitEmptyAlertsListIsMetricsOnly() throws {
        let h = try RunHarness()
        try breach(h)
        let config = try h.dir.write(
            "uaaudit.json",
            #"{"version": 1, "logs": ["\#(h.log)"], "state": "\#(h.state)", "report": "\#(h.report)", "alerts": []}"#)
        #expect(try Tool.run(["run", "-q", "--config", config, "--now", "2026-11-29T11:06:00Z"]).status == 0)
        #expect(try h.ledgerHours("not_alerted") == [Self.h10])
        let hour = try unwrap((try h.reportJSON()["hours"] as? [[String: Any]])?.first)
        #expect(hour["alert"] as? Bool == true)
        #expect(hour["alert_status"] as? String == "not_alerted")
        #expect((try h.reportJSON()["totals"] as? [String: Any])?["pending_alert_hours"] == nil)
    }

    @Test func noSecretOfAChannelReachesTheStateStateShowOrStderr() throws {
        let path = "/webhook/abcdefghijklmnopqrstuvwx"
        let receiver = try WebhookReceiver(routes: [
            path: [Reply(status: 500, body: "no route /webhook/abcdefghijklmnopqrstuvwx for k=q7x, user ann:zz9")]
        ])
        let h = try RunHarness()
        try breach(h)
        let url = "http://ann:zz9@127.0.0.1:\(receiver.port)\(path)?k=q7x"
        let run = try h.run(
            now: "2026-11-29T11:06:00Z",
            extra: ["--webhook", url, "--webhook-kind", "generic", "--webhook-retries", "0", "--heartbeat"])
        #expect(run.status == 4)
        let state = try String(contentsOfFile: h.state, encoding: .utf8)
        let shown = try Tool.run(["state", "show", "--state", h.state])
        #expect(
            shown.out.contains(
                "last error: not delivered to generic \(Redaction.url(url)) (1 attempt): HTTP 500: no route *** for ***, user ***:***\n"
            ))
        for text in [run.stderr, run.out, state, shown.out, try String(contentsOfFile: h.report, encoding: .utf8)] {
            for secret in ["abcdefghijklmnopqrstuvwx", "q7x", "zz9", "ann"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
    }
}
