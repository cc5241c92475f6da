import Foundation
import Synchronization
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Delivery against a real HTTP receiver on 127.0.0.1 that answers as each service does.
@Suite struct AlertDispatcherTests {
    typealias Reply = WebhookReceiver.Reply

    static let ok: [String: [Reply]] = [
        "/wecom": [.json(#"{"errcode":0,"errmsg":"ok"}"#)],
        "/dingtalk": [.json(#"{"errcode":0,"errmsg":"ok"}"#)],
        "/feishu": [.json(#"{"code":0,"msg":"success","data":{}}"#)],
        "/slack": [Reply(status: 200, body: "ok")],
        "/generic": [Reply(status: 202)],
        "/am/api/v2/alerts": [Reply(status: 200)],
    ]

    /// Fast retries, so that the tests take milliseconds.
    static let fast = DeliveryOptions(timeout: 2, retries: 2, backoff: 0.05, maxWait: 2, userAgent: "uaaudit-test")

    static func channels(_ base: String) -> [AlertChannel] {
        [
            AlertChannel(kind: .wecom, url: .literal("\(base)/wecom?key=KEY-SECRET-1")),
            AlertChannel(kind: .dingtalk, url: .literal("\(base)/dingtalk?access_token=TOKEN-SECRET-1")),
            AlertChannel(kind: .feishu, url: .literal("\(base)/feishu")),
            AlertChannel(kind: .slack, url: .literal("\(base)/slack")),
            AlertChannel(kind: .generic, url: .literal("\(base)/generic")),
            AlertChannel(kind: .alertmanager, url: .literal("\(base)/am")),
        ]
    }

    @Test func aBreachSendsExactlyOneMessageToEachChannel() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let notification = try AlertFixtures.notification()
        let dispatcher = AlertDispatcher(options: Self.fast, environment: [:])
        let results = dispatcher.deliver(notification, to: Self.channels(receiver.baseURL))
        #expect(results.map(\.delivered) == [true, true, true, true, true, true])
        #expect(results.map(\.attempts) == [1, 1, 1, 1, 1, 1])
        #expect(results.map(\.kind) == [.wecom, .dingtalk, .feishu, .slack, .generic, .alertmanager])
        #expect(
            results[0].description
                == "delivered to wecom \(Redaction.url(receiver.baseURL + "/wecom?key=KEY-SECRET-1")) (1 attempt)")
        let requests = try receiver.requests()
        #expect(
            requests.map(\.path) == [
                "/wecom?key=KEY-SECRET-1", "/dingtalk?access_token=TOKEN-SECRET-1", "/feishu", "/slack", "/generic",
                "/am/api/v2/alerts",
            ])
        #expect(requests.allSatisfy { $0.method == "POST" })
        #expect(requests.allSatisfy { $0.headers["content-type"] == "application/json" })
        #expect(requests.allSatisfy { $0.headers["user-agent"] == "uaaudit-test" })
        // The bytes sent are the format's payload (the golden files pin those).
        let wecom = try AlertFixtures.channel(
            #"{"url": "\#(receiver.baseURL)/wecom?key=KEY-SECRET-1", "kind": "wecom"}"#)
        #expect(requests[0].body == (try WeComFormat().request(for: notification, to: wecom, now: Date())).body)
        #expect(requests[4].body == (try AlertJSON.encode(notification)))
    }

    @Test func signedRequestsCarrySignaturesOpenSSLAgreesWith() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let dir = try TempDirectory()
        let secret = "SEC-signing-secret-42"
        let channels = [
            AlertChannel(
                kind: .dingtalk, url: .literal("\(receiver.baseURL)/dingtalk?access_token=T1"),
                secret: .environment("S")),
            AlertChannel(
                kind: .feishu, url: .literal("\(receiver.baseURL)/feishu"),
                secret: .file(try dir.write("secret", Array((secret + "\n").utf8)))),
        ]
        let before = Int64(Date().timeIntervalSince1970)
        let results = AlertDispatcher(options: Self.fast, environment: ["S": secret]).deliver(
            try AlertFixtures.notification(), to: channels)
        #expect(results.map(\.delivered) == [true, true])
        let requests = try receiver.requests()
        #expect(requests.count == 2)

        let query = try #require(URLComponents(string: "http://x\(requests[0].path)")?.queryItems)
        let milliseconds = try #require(query.first { $0.name == "timestamp" }?.value.flatMap { Int64($0) })
        let sign = try #require(query.first { $0.name == "sign" }?.value)
        #expect(abs(milliseconds / 1000 - before) <= 5)
        #expect(sign == (try WebhookSigningTests.openssl(key: secret, message: "\(milliseconds)\n\(secret)")))
        #expect(requests[0].path.hasPrefix("/dingtalk?access_token=T1&timestamp=\(milliseconds)&sign="))

        let body = try #require(try JSONSerialization.jsonObject(with: Data(requests[1].body)) as? [String: Any])
        let timestamp = try #require((body["timestamp"] as? String).flatMap { Int64($0) })
        #expect(abs(timestamp - before) <= 5)
        #expect(
            body["sign"] as? String == (try WebhookSigningTests.openssl(key: "\(timestamp)\n\(secret)", message: "")))
    }

    @Test func fiveHundredsAreRetriedWithBackoffThenReported() throws {
        let receiver = try WebhookReceiver(routes: ["/wecom": [Reply(status: 500, body: "internal error")]])
        let result = try #require(
            AlertDispatcher(options: Self.fast, environment: [:]).deliver(
                try AlertFixtures.notification(), to: [Self.channels(receiver.baseURL)[0]]
            ).first)
        #expect(!result.delivered)
        #expect(result.attempts == 3)
        #expect(result.failure == .http(status: 500, body: "internal error"))
        let times = try receiver.requests().map(\.time)
        #expect(times.count == 3)
        #expect(times[1] - times[0] >= 0.05 && times[2] - times[1] >= 0.1)
        #expect(
            result.description
                == "not delivered to wecom \(Redaction.url(receiver.baseURL + "/wecom?key=KEY-SECRET-1")) (3 attempts): HTTP 500: internal error"
        )
    }

    @Test func aWeComRateLimitIsRetriedUntilItPasses() throws {
        let receiver = try WebhookReceiver(routes: [
            "/wecom": [
                .json(#"{"errcode":45009,"errmsg":"api freq out of limit"}"#), .json(#"{"errcode":0,"errmsg":"ok"}"#),
            ]
        ])
        let results = AlertDispatcher(options: Self.fast, environment: [:]).deliver(
            try AlertFixtures.notification(), to: [Self.channels(receiver.baseURL)[0]])
        #expect(
            results == [
                DeliveryResult(
                    channel: "wecom \(Redaction.url(receiver.baseURL + "/wecom?key=KEY-SECRET-1"))", kind: .wecom,
                    delivered: true, attempts: 2,
                    failure: nil)
            ])
        #expect(try receiver.requests().count == 2)
    }

    @Test func aWeComErrorIsNotRetriedAndKeepsItsOwnWordsButNotTheKey() throws {
        let receiver = try WebhookReceiver(routes: [
            "/wecom": [.json(#"{"errcode":93000,"errmsg":"invalid webhook url KEY-SECRET-1, hint: [1]"}"#)]
        ])
        let result = try #require(
            AlertDispatcher(options: Self.fast, environment: [:]).deliver(
                try AlertFixtures.notification(), to: [Self.channels(receiver.baseURL)[0]]
            ).first)
        #expect(result.attempts == 1)
        #expect(
            result.failure == .service(field: "errcode", code: 93000, message: "invalid webhook url ***, hint: [1]"))
        #expect(!result.description.contains("KEY-SECRET-1"))
    }

    @Test func otherClientErrorsAreNotRetried() throws {
        let receiver = try WebhookReceiver(routes: ["/slack": [Reply(status: 404, body: "no_service")]])
        let result = try #require(
            AlertDispatcher(options: Self.fast, environment: [:]).deliver(
                try AlertFixtures.notification(), to: [Self.channels(receiver.baseURL)[3]]
            ).first)
        #expect(result.attempts == 1)
        #expect(result.failure == .http(status: 404, body: "no_service"))
    }

    @Test func aSlowAnswerTimesOut() throws {
        let receiver = try WebhookReceiver(routes: ["/slack": [Reply(status: 200, body: "ok", delay: 10)]])
        let options = DeliveryOptions(timeout: 0.3, retries: 1, backoff: 0, userAgent: "t")
        let start = Date()
        let result = try #require(
            AlertDispatcher(options: options, environment: [:]).deliver(
                try AlertFixtures.notification(), to: [Self.channels(receiver.baseURL)[3]]
            ).first)
        let elapsed = Date().timeIntervalSince(start)
        #expect(!result.delivered)
        #expect(result.attempts == 2)
        #expect(result.failure == .timeout(seconds: 0.3))
        #expect(result.failure?.description == "no answer within 0.3 s")
        let times = try receiver.requests().map(\.time)
        #expect(elapsed >= 0.6 && elapsed < 5, "\(elapsed) \(times) \(result)")
        #expect(try receiver.requests().count == 2)
    }

    @Test func aRefusedConnectionIsRetriedThenReported() throws {
        let port = try WebhookReceiver.refusingPort()
        let result = try #require(
            AlertDispatcher(options: Self.fast, environment: [:]).deliver(
                try AlertFixtures.notification(), to: [Self.channels("http://127.0.0.1:\(port)")[4]]
            ).first)
        #expect(result.attempts == 3)
        #expect(result.failure == .connection("connection refused"))
        #expect(
            result.description
                == "not delivered to generic \(Redaction.url("http://127.0.0.1:\(port)/generic")) (3 attempts): connection refused (check the URL's host and port, and that the receiver is running)"
        )
    }

    @Test func slackRetryAfterIsHonouredUpToTheCap() throws {
        let receiver = try WebhookReceiver(routes: [
            "/slack": [
                Reply(status: 429, body: "rate_limited", headers: ["Retry-After": "1"]), Reply(status: 200, body: "ok"),
            ],
            "/capped": [Reply(status: 429, headers: ["Retry-After": "120"]), Reply(status: 200, body: "ok")],
        ])
        let options = DeliveryOptions(timeout: 2, retries: 2, backoff: 0.01, maxWait: 1.5, userAgent: "t")
        let channels = [
            AlertChannel(kind: .slack, url: .literal("\(receiver.baseURL)/slack")),
            AlertChannel(kind: .slack, url: .literal("\(receiver.baseURL)/capped")),
        ]
        let results = AlertDispatcher(options: options, environment: [:]).deliver(
            try AlertFixtures.notification(), to: channels)
        #expect(results.map(\.delivered) == [true, true])
        #expect(results.map(\.attempts) == [2, 2])
        let times = try receiver.requests().map(\.time)
        #expect(times.count == 4)
        // Upper bounds leave room for a loaded machine; what they rule out is a 120 s wait.
        #expect(times[1] - times[0] >= 0.95 && times[1] - times[0] < 3, "\(times[1] - times[0])")
        #expect(times[3] - times[2] >= 1.45 && times[3] - times[2] < 4, "\(times[3] - times[2])")
    }

    @Test func anUnresolvableChannelIsReportedWithoutARequest() throws {
        let receiver = try WebhookReceiver(routes: Self.ok)
        let channels = [
            AlertChannel(kind: .wecom, url: .environment("NOT_SET_ANYWHERE")),
            AlertChannel(kind: .slack, url: .literal("\(receiver.baseURL)/slack")),
        ]
        let results = AlertDispatcher(options: Self.fast, environment: [:]).deliver(
            try AlertFixtures.notification(), to: channels)
        #expect(
            results[0]
                == DeliveryResult(
                    channel: "wecom (URL from $NOT_SET_ANYWHERE)", kind: .wecom, delivered: false, attempts: 0,
                    failure: .configuration(
                        "environment variable NOT_SET_ANYWHERE (the webhook URL) is not set or empty")))
        #expect(results[1].delivered)
        #expect(try receiver.requests().map(\.path) == ["/slack"])
    }

    /// The waits between attempts, without sleeping: backoff doubles; Retry-After wins, capped.
    @Test func waitsBetweenAttemptsAreExact() throws {
        final class Scripted: HTTPTransport {
            let answers: [HTTPResponse]
            let count = Mutex(0)
            init(answers: [HTTPResponse]) { self.answers = answers }
            func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
                let n = count.withLock { value in
                    value += 1
                    return value
                }
                return .success(answers[min(n, answers.count) - 1])
            }
        }
        final class Waits: Sendable {
            let list = Mutex<[Double]>([])
        }
        let waits = Waits()
        let transport = Scripted(answers: [
            HTTPResponse(status: 503), HTTPResponse(status: 429, headers: ["Retry-After": "7"]),
            HTTPResponse(status: 502), HTTPResponse(status: 429, headers: ["Retry-After": "500"]),
            HTTPResponse(status: 200),
        ])
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 4, backoff: 1, maxWait: 30), environment: [:], transport: transport,
            clock: { AlertFixtures.now }, sleep: { seconds in waits.list.withLock { $0.append(seconds) } })
        let result = dispatcher.deliver(
            try AlertFixtures.notification(), to: try AlertFixtures.channel(#"{"kind": "generic", "url": "http://h/"}"#)
        )
        #expect(result.delivered && result.attempts == 5)
        #expect(waits.list.withLock { $0 } == [1, 7, 4, 30])
    }

    /// Answers 503 with `Retry-After: 30` and counts the attempts.
    final class Unavailable: HTTPTransport {
        let count = Mutex(0)
        func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
            count.withLock { $0 += 1 }
            return .success(HTTPResponse(status: 503, headers: ["Retry-After": "30"]))
        }
    }

    /// A stop requested during an attempt: that attempt is the last, with no wait and no retry.
    @Test func aStopDuringAnAttemptEndsTheChannelAfterIt() throws {
        let transport = Unavailable()
        let waits = Mutex<[Double]>([])
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 5, backoff: 1, maxWait: 30), environment: [:], transport: transport,
            clock: { AlertFixtures.now }, sleep: { seconds in waits.withLock { $0.append(seconds) } },
            stop: DeliveryStop { transport.count.withLock { $0 } >= 1 ? 1 : 0 })
        let result = dispatcher.deliver(
            try AlertFixtures.notification(), to: try AlertFixtures.channel(#"{"kind": "generic", "url": "http://h/"}"#)
        )
        #expect(!result.delivered && result.attempts == 1)
        #expect(result.failure == .http(status: 503, body: ""))
        #expect(transport.count.withLock { $0 } == 1)
        #expect(waits.withLock { $0 } == [])
    }

    /// A stop that comes during a `Retry-After: 30` wait ends the wait within a poll interval,
    /// and no retry follows.
    @Test func aStopCutsTheWaitBeforeARetryShort() throws {
        let transport = Unavailable()
        let started = Date()
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 5, backoff: 1, maxWait: 30), environment: [:], transport: transport,
            stop: DeliveryStop { Date().timeIntervalSince(started) >= 0.3 ? 1 : 0 })
        let result = dispatcher.deliver(
            try AlertFixtures.notification(), to: try AlertFixtures.channel(#"{"kind": "generic", "url": "http://h/"}"#)
        )
        let elapsed = Date().timeIntervalSince(started)
        #expect(!result.delivered && result.attempts == 1)
        #expect(transport.count.withLock { $0 } == 1)
        #expect(elapsed >= 0.3 && elapsed < 0.6, "\(elapsed) s")
    }

    /// Credentials in the URL go as `Authorization: Basic` (percent-decoded), and no answer
    /// or message shows them, the Base64 token included.
    @Test func urlCredentialsAreSentAsBasicAuthorizationAndNeverShown() throws {
        let receiver = try WebhookReceiver(routes: [
            "/hook": [Reply(status: 401, body: "bad Basic dXNlcjpwQHNzOnc= for user pa")]
        ])
        let url = receiver.baseURL.replacingOccurrences(of: "http://", with: "http://user:p%40ss:w@") + "/hook"
        let dispatcher = AlertDispatcher(options: Self.fast, environment: [:])
        let result = dispatcher.deliver(
            try AlertFixtures.notification(), to: [AlertChannel(kind: .generic, url: .literal(url))])[0]
        let requests = try receiver.requests()
        #expect(requests.map { $0.headers["authorization"] } == ["Basic dXNlcjpwQHNzOnc="])
        #expect(Data(base64Encoded: "dXNlcjpwQHNzOnc=") == Data("user:p@ss:w".utf8))
        #expect(result.failure == .http(status: 401, body: "bad Basic *** for *** pa"))
        #expect(result.channel == "generic \(Redaction.url(url))")
    }

    /// `scan`'s and `alert`'s delivery sends a notification too long for WeCom whole, as
    /// several messages: every hour in exactly one, one result for the channel.
    @Test func aNotificationTooLongForOneMessageIsDeliveredWholeInSeveral() throws {
        let report = try LedgerDeliveryTests().backlogReport(count: 48)
        let notification = try #require(AlertNotification(report: report, host: "web-1"))
        let transport = LedgerDeliveryTests.ChatReceiver()
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: transport, clock: { Date() },
            sleep: { _ in })
        let results = dispatcher.deliverWhole(
            notification, to: [AlertChannel(kind: .wecom, url: .literal("http://h/cgi-bin/webhook/send?key=K"))])
        #expect(results.map(\.delivered) == [true])
        #expect(results.map(\.attempts) == [4])
        let texts = transport.texts.withLock { $0 }
        #expect(texts.count == 4)
        for i in 0..<48 {
            #expect(texts.filter { $0.contains("id " + String(format: "h%07d", i)) }.count == 1, "hour \(i)")
        }
    }
}
