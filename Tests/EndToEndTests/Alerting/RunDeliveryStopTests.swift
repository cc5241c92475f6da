import Foundation
import Testing
import WebhookReceiver

/// `uaaudit run` killed (SIGKILL) or stopped (SIGTERM) at each point of delivery, then run
/// again: every breached hour reaches both channels under one id, the same in every message;
/// a SIGTERM once delivery began commits what was delivered, so only a SIGKILL between a
/// channel's answer and the commit sends an hour twice.
@Suite(.serialized) struct RunDeliveryStopTests {
    typealias Reply = WebhookReceiver.Reply

    struct Case: Sendable, CustomStringConvertible {
        var point: String
        var signal: String  // "kill" or "term"
        /// Messages carrying hour 10 that /a and /b get in all.
        var a: Int
        var b: Int
        var description: String { "\(signal) at \(point)" }
    }

    static let cases: [Case] = [
        Case(point: "after-report", signal: "kill", a: 1, b: 1),
        Case(point: "after-report", signal: "term", a: 1, b: 1),
        Case(point: "after-channel", signal: "kill", a: 2, b: 1),
        Case(point: "after-channel", signal: "term", a: 1, b: 1),
        Case(point: "after-deliver", signal: "kill", a: 2, b: 2),
        Case(point: "after-deliver", signal: "term", a: 1, b: 1),
        Case(point: "before-commit", signal: "kill", a: 2, b: 2),
        Case(point: "before-commit", signal: "term", a: 1, b: 1),
        Case(point: "after-commit", signal: "kill", a: 1, b: 1),
        Case(point: "after-commit", signal: "term", a: 1, b: 1),
    ]

    static let h10 = "2026-11-29T10:00:00+00:00"
    static let h11 = "2026-11-29T11:00:00+00:00"

    @Test(arguments: cases)
    func oneIDPerHourAcrossEveryMessage(_ c: Case) throws {
        let receiver = try WebhookReceiver(routes: ["/a": [Reply(status: 200)], "/b": [Reply(status: 200)]])
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        let hooks = [
            "--webhook", "\(receiver.baseURL)/a", "--webhook-kind", "generic", "--webhook", "\(receiver.baseURL)/b",
            "--webhook-kind", "generic",
        ]
        let variable = c.signal == "kill" ? "UAAUDIT_TEST_CRASH_AT" : "UAAUDIT_TEST_SIGNAL_AT"
        let stopped = try h.run(now: "2026-11-29T11:06:00Z", extra: hooks, environment: [variable: c.point])
        if c.signal == "kill" {
            #expect(stopped.status == 9)
        } else {
            #expect(stopped.status == 143)
            if c.point != "after-report" {
                #expect(
                    stopped.stderr.contains(
                        "stopped by signal 15 during delivery; what was delivered is committed, the other hours stay pending"
                    ))
            }
        }
        #expect(try h.run(now: "2026-11-29T11:07:00Z", extra: hooks).status == 0)
        #expect(try h.ledgerHours("pending") == [])
        // Hour 11 breaches too; hour 12 does not and must never be sent.
        try h.append(150, hour: 11)
        try h.append(3, hour: 11, minute: 40, cls: "inconsistent")
        try h.append(150, hour: 12)
        #expect(try h.run(now: "2026-11-29T13:06:00Z", extra: hooks).status == 0)

        var ids: [String: Set<String>] = [:]
        var perPath: [String: [String: Int]] = [:]
        for request in try receiver.requests() {
            let body = try unwrap(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            for hour in try unwrap(body["hours"] as? [[String: Any]]) {
                let name = try unwrap(hour["hour"] as? String)
                ids[name, default: []].insert(try unwrap(hour["id"] as? String))
                perPath[request.path, default: [:]][name, default: 0] += 1
            }
        }
        #expect(Set(ids.keys) == [Self.h10, Self.h11])
        #expect(ids.values.allSatisfy { $0.count == 1 })
        #expect(perPath["/a"] == [Self.h10: c.a, Self.h11: 1])
        #expect(perPath["/b"] == [Self.h10: c.b, Self.h11: 1])
        let ledger = try h.ledger()
        #expect(ledger[Self.h10]?.id == ids[Self.h10]?.first)
        #expect(ledger.mapValues(\.status) == [Self.h10: "delivered", Self.h11: "delivered"])
    }

    struct StopCase: Sendable, CustomStringConvertible {
        var name: String
        var reply: Reply
        /// Signals sent, the first 1.5 s after the start, the next 0.3 s later.
        var signals: Int
        /// The run ends before this many seconds.
        var within: Double
        var description: String { name }
    }

    static let stopCases: [StopCase] = [
        // Retry-After 30 with 3 retries: without the stop, about 90 s.
        StopCase(name: "retry-after", reply: Reply(status: 503, headers: ["Retry-After": "30"]), signals: 1, within: 4),
        // A hung receiver: the attempt in flight ends at its 4 s timeout, no retry follows.
        StopCase(name: "hung", reply: Reply(status: 200, delay: 60), signals: 1, within: 6),
        // A second signal aborts the attempt in flight.
        StopCase(name: "hung-twice", reply: Reply(status: 200, delay: 60), signals: 2, within: 3),
    ]

    /// SIGTERM during delivery: at most the attempt in flight finishes, no retry, no wait;
    /// exit 143, and the hour stays pending for the next run.
    @Test(arguments: stopCases)
    func aStopSignalEndsDeliveryAfterTheAttemptInFlight(_ c: StopCase) throws {
        let receiver = try WebhookReceiver(routes: ["/a": [c.reply]])
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        let hooks = [
            "--webhook", "\(receiver.baseURL)/a", "--webhook-kind", "generic", "--webhook-retries", "3",
            "--webhook-timeout", "4",
        ]
        let second = c.signals > 1 ? "sleep 0.3; kill -TERM $p; " : ""
        let launcher = ["/bin/sh", "-c", "\"$0\" \"$@\" & p=$!; sleep 1.5; kill -TERM $p; \(second)wait $p"]
        let started = Date()
        let result = try h.run(now: "2026-11-29T11:06:00Z", extra: hooks, launcher: launcher)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 143)
        #expect(elapsed < c.within, "\(elapsed) s")
        #expect(try receiver.requests().count == 1)
        #expect(
            result.stderr.contains(
                "stopped by signal 15 during delivery; what was delivered is committed, the other hours stay pending"))
        #expect(try h.ledgerHours("pending") == [Self.h10])
    }

    /// `--heartbeat` prints its line, with the exit status, when a signal stops the run too:
    /// before the commit (nothing sent) and during delivery (what was sent is counted).
    @Test(arguments: [
        ("after-report", "alerts sent 0, alerts pending 1"),
        ("after-channel", "alerts sent 1, alerts pending 0"),
    ])
    func aStoppedRunPrintsItsHeartbeat(point: String, alerts: String) throws {
        let receiver = try WebhookReceiver(routes: ["/a": [Reply(status: 200)]])
        let h = try RunHarness()
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        let result = try h.run(
            now: "2026-11-29T11:06:00Z",
            extra: ["--heartbeat", "--webhook", "\(receiver.baseURL)/a", "--webhook-kind", "generic"],
            environment: ["UAAUDIT_TEST_SIGNAL_AT": point])
        #expect(result.status == 143)
        let beats = result.stderr.split(separator: "\n").filter { $0.contains("run: lines") }
        #expect(
            beats == [
                "uaaudit: run: lines 152, malformed 0, hours closed 1, \(alerts), gaps 0, exit 143"
            ])
    }
}
