import Foundation
import Testing
import WebhookReceiver

/// `uaaudit run` with a webhook: one message per breached hour, ever; a refused alert is kept
/// in the state and sent on the next run.
@Suite struct RunAlertTests {
    typealias Reply = WebhookReceiver.Reply

    func breach(_ h: RunHarness) throws {
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        try h.append(10, hour: 11, minute: 1)  // newest line 11:01: hour 10 closes by the clock at 11:05
    }

    func pending(_ h: RunHarness) throws -> [String] { try h.ledgerHours("pending") }

    func ids(_ requests: [WebhookReceiver.Request]) -> [String] {
        requests.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any])?["id"] as? String
        }
    }

    @Test func aBreachedHourIsSentOnceWhateverTheNumberOfRuns() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let h = try RunHarness()
        try breach(h)
        let hook = ["--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        #expect(try h.run(now: "2026-11-29T10:50:00Z", extra: hook).status == 0)  // open: nothing yet
        #expect(try receiver.requests().isEmpty)
        #expect(try h.run(now: "2026-11-29T11:06:00Z", extra: hook).status == 0)
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: hook).status == 0)
        let requests = try receiver.requests()
        #expect(requests.count == 1)
        let body = try unwrap(JSONSerialization.jsonObject(with: Data(requests[0].body)) as? [String: Any])
        #expect(body["host"] as? String == "test-host")
        #expect((body["hours"] as? [[String: Any]])?.map { $0["hour"] as? String } == ["2026-11-29T10:00:00+00:00"])
        #expect(try pending(h).isEmpty)
        // The message names the report and the command that explains the hour; the command works.
        #expect(body["report"] as? String == h.report)
        let command = "uaaudit explain 2026-11-29T10:00:00+00:00 \(h.report)"
        #expect(body["explain"] as? [String: String] == ["2026-11-29T10:00:00+00:00": command])
        let explained = try Tool.run(command.split(separator: " ").dropFirst().map(String.init))
        #expect(explained.status == 0)
        #expect(explained.out.contains("2026-11-29 10:00+00:00"), "\(explained.out)")
    }

    @Test func aRefusedAlertIsKeptAndDeliveredByTheNextRun() throws {
        let receiver = try WebhookReceiver(routes: [
            "/hook": [Reply(status: 500), Reply(status: 500), Reply(status: 200)]
        ])
        let h = try RunHarness()
        try breach(h)
        let hook = [
            "--webhook", "\(receiver.baseURL)/hook?token=SECRET-TOKEN", "--webhook-kind", "generic",
            "--webhook-retries", "1", "--webhook-timeout", "2",
        ]
        let first = try h.run(now: "2026-11-29T11:06:00Z", extra: hook)
        #expect(first.status == 4)
        #expect(first.stderr.contains("kept for the next run"))
        #expect(!first.stderr.contains("SECRET-TOKEN"))
        #expect(try pending(h).count == 1)
        #expect(!(try String(contentsOfFile: h.state, encoding: .utf8)).contains("SECRET-TOKEN"))
        #expect(try h.run(now: "2026-11-29T11:20:00Z", extra: hook).status == 0)
        #expect(try pending(h).isEmpty)
        #expect(try h.run(now: "2026-11-29T11:40:00Z", extra: hook).status == 0)
        let requests = try receiver.requests()
        #expect(requests.count == 3)  // two refused attempts, then the delivery; nothing after
        let sent = ids(requests)
        #expect(sent.count == 3)
        #expect(Set(sent).count == 1)  // the same alert id every time: a receiver can dedupe
    }

    @Test func dyingAfterTheReceiverAnsweredSendsItAgainWithTheSameID() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let h = try RunHarness()
        try breach(h)
        let hook = ["--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        let killed = try h.run(
            now: "2026-11-29T11:06:00Z", extra: hook, environment: ["UAAUDIT_TEST_CRASH_AT": "after-deliver"])
        #expect(killed.status == 9)
        #expect(try h.run(now: "2026-11-29T11:06:00Z", extra: hook).status == 0)
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: hook).status == 0)
        let sent = ids(try receiver.requests())
        #expect(sent.count == 2)  // the documented duplicate: died between the answer and the commit
        #expect(Set(sent).count == 1)
    }

    /// Without a report, the explain command in the message carries the run's own settings
    /// (rules, policy, drift options), so that pasting it shows the figures that alerted.
    @Test func theExplainCommandOfARunWithoutAReportMakesTheSameFigures() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let h = try RunHarness()
        let rules = h.dir.path("my rules.json")
        try FileManager.default.copyItem(
            atPath: Tool.repoRoot.appendingPathComponent("rules/builtin.json").path,
            toPath: rules)
        try h.append(60, hour: 8)
        try h.append(60, hour: 9)
        try h.append(50, hour: 10)
        try h.append(10, hour: 10, minute: 20, cls: "other")  // a new UA family: 1/6 of the hour
        try h.append(5, hour: 11, minute: 1)
        let result = try Tool.run([
            "run", "-q", "--state", h.state, "--now", "2026-11-29T11:06:00Z", "--host", "test-host",
            "--rules", rules, "--min-requests", "50", "--alert-new-family", "5%",
            "--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic", h.log,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try receiver.requests()
        #expect(requests.count == 1)
        let body = try unwrap(JSONSerialization.jsonObject(with: Data(requests[0].body)) as? [String: Any])
        let hours = try unwrap(body["hours"] as? [[String: Any]])
        #expect(hours.map { $0["hour"] as? String } == ["2026-11-29T10:00:00+00:00"])
        let command = try unwrap((body["explain"] as? [String: String])?["2026-11-29T10:00:00+00:00"])
        #expect(command.contains(" --rules '\(rules)' --min-requests 50 --top 10 --alert-new-family 5% "), "\(command)")
        // Pasted into a shell, it shows the hour as the run saw it: an alert, by drift.
        let pasted = try Tool.run(
            [], launcher: ["/bin/sh", "-c", "uaaudit() { \"$0\" \"$@\"; }; \(command) --json"])
        #expect(pasted.status == 0, "\(pasted.stderr)")
        let explained = try unwrap(JSONSerialization.jsonObject(with: Data(pasted.out.utf8)) as? [String: Any])
        #expect(explained["min_requests"] as? Int == 50)
        var entry = try unwrap(explained["hour"] as? [String: Any])
        // What only merge needs (every family of the hour) is in reports, not in messages.
        var drift = try unwrap(entry["drift"] as? [String: Any])
        #expect(drift.removeValue(forKey: "families") != nil)
        entry["drift"] = drift
        #expect(entry["alert"] as? Bool == false)
        #expect((entry["drift"] as? [String: Any])?["alert"] as? Bool == true)
        for key in ["requests", "classes", "alert", "drift"] {
            #expect(
                (entry[key] as? NSObject) == (hours[0][key] as? NSObject) && entry[key] != nil,
                "\(key): \(entry[key] ?? "nil") vs \(hours[0][key] ?? "nil")")
        }
    }

    /// An HTML page that cannot be written is exit 6, but the alert goes out and the state is
    /// committed, so the next run does not send it again (the page is an extra, as the metrics).
    @Test func anUnwritableHTMLPageDoesNotHoldTheAlertBack() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let h = try RunHarness()
        try breach(h)
        let html = h.dir.path("missing/x.html")
        let hook = ["--html", html, "--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        let first = try h.run(now: "2026-11-29T11:06:00Z", extra: hook)
        #expect(first.status == 6)
        #expect(first.stderr.hasPrefix("uaaudit: cannot write HTML report \(html): "), "\(first.stderr)")
        #expect(try receiver.requests().count == 1)
        #expect(try pending(h).isEmpty)
        #expect(try h.ledgerHours("delivered") == ["2026-11-29T10:00:00+00:00"])
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: hook).status == 6)
        #expect(try receiver.requests().count == 1)
    }
}
