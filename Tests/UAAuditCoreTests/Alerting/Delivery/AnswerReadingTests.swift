import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// How each channel reads a service's answers.
@Suite struct AnswerReadingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: ChannelKind
        var status: Int
        var body: String
        var headers: [String: String] = [:]
        var outcome: AttemptOutcome
        var testDescription: String { "\(kind) \(status) \(body)" }
    }

    static let url: [ChannelKind: String] = [
        .wecom: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY-SECRET-1",
        .dingtalk: "https://oapi.dingtalk.com/robot/send?access_token=TOKEN-SECRET-1",
        .feishu: "https://open.feishu.cn/open-apis/bot/v2/hook/HOOK-SECRET-1",
        .slack: "https://hooks.slack.com/services/T000/B000/XXXX-SECRET",
        .generic: "https://example.com/hook",
        .alertmanager: "http://127.0.0.1:9093",
    ]

    static let cases: [Case] = [
        Case(kind: .wecom, status: 200, body: #"{"errcode":0,"errmsg":"ok"}"#, outcome: .delivered),
        Case(
            kind: .wecom, status: 200, body: #"{"errcode":93000,"errmsg":"invalid webhook url, hint: [1]"}"#,
            outcome: .fail(.service(field: "errcode", code: 93000, message: "invalid webhook url, hint: [1]"))),
        Case(
            kind: .wecom, status: 200, body: #"{"errcode":45009,"errmsg":"api freq out of limit"}"#,
            outcome: .retry(.service(field: "errcode", code: 45009, message: "api freq out of limit"), retryAfter: nil)),
        Case(kind: .wecom, status: 200, body: "ok", outcome: .fail(.unexpectedAnswer(status: 200, body: "ok"))),
        Case(kind: .wecom, status: 204, body: "", outcome: .fail(.http(status: 204, body: ""))),
        Case(
            kind: .wecom, status: 502, body: "<html>bad gateway</html>",
            outcome: .retry(.http(status: 502, body: "<html>bad gateway</html>"), retryAfter: nil)),
        Case(kind: .wecom, status: 404, body: "not found", outcome: .fail(.http(status: 404, body: "not found"))),
        Case(
            kind: .wecom, status: 200, body: #"{"errcode":93000,"errmsg":"bad key KEY-SECRET-1\u001b[2J"}"#,
            outcome: .fail(.service(field: "errcode", code: 93000, message: "bad key ***\\x1B[2J"))),
        Case(kind: .dingtalk, status: 200, body: #"{"errcode":0,"errmsg":"ok"}"#, outcome: .delivered),
        Case(
            kind: .dingtalk, status: 200, body: #"{"errcode":310000,"errmsg":"sign not match"}"#,
            outcome: .fail(.service(field: "errcode", code: 310_000, message: "sign not match"))),
        Case(
            kind: .dingtalk, status: 200, body: #"{"errcode":130101,"errmsg":"send too fast"}"#,
            outcome: .retry(.service(field: "errcode", code: 130_101, message: "send too fast"), retryAfter: nil)),
        Case(kind: .feishu, status: 200, body: #"{"code":0,"msg":"success","data":{}}"#, outcome: .delivered),
        Case(kind: .feishu, status: 200, body: #"{"StatusCode":0,"StatusMessage":"success"}"#, outcome: .delivered),
        Case(
            kind: .feishu, status: 200,
            body: #"{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}"#,
            outcome: .fail(
                .service(
                    field: "code", code: 19021,
                    message: "sign match fail or timestamp is not within one hour from current time"))),
        Case(
            kind: .feishu, status: 400, body: #"{"code":9499,"msg":"Bad Request"}"#,
            outcome: .fail(.service(field: "code", code: 9499, message: "Bad Request"))),
        Case(
            kind: .feishu, status: 200, body: #"{"code":11232,"msg":"frequency limited"}"#,
            outcome: .retry(.service(field: "code", code: 11232, message: "frequency limited"), retryAfter: nil)),
        Case(kind: .slack, status: 200, body: "ok", outcome: .delivered),
        Case(
            kind: .slack, status: 429, body: "rate_limited", headers: ["Retry-After": "30"],
            outcome: .retry(.http(status: 429, body: "rate_limited"), retryAfter: 30)),
        Case(kind: .slack, status: 404, body: "no_service", outcome: .fail(.http(status: 404, body: "no_service"))),
        Case(
            kind: .slack, status: 403, body: "invalid_token", outcome: .fail(.http(status: 403, body: "invalid_token"))
        ),
        Case(kind: .slack, status: 201, body: "", outcome: .fail(.unexpectedAnswer(status: 201, body: ""))),
        Case(kind: .generic, status: 202, body: "", outcome: .delivered),
        Case(
            kind: .generic, status: 503, body: "", headers: ["retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"],
            outcome: .retry(.http(status: 503, body: ""), retryAfter: nil)),
        Case(kind: .generic, status: 410, body: "", outcome: .fail(.http(status: 410, body: ""))),
        Case(kind: .alertmanager, status: 200, body: "", outcome: .delivered),
        Case(
            kind: .alertmanager, status: 400, body: #"{"code":400,"message":"start time must be before end time"}"#,
            outcome: .fail(.http(status: 400, body: #"{"code":400,"message":"start time must be before end time"}"#))),
    ]

    @Test(arguments: cases)
    func answersMeanWhatTheServiceSays(c: Case) throws {
        let channel = try AlertChannel(kind: c.kind, url: .literal(try #require(Self.url[c.kind]))).resolve(
            environment: [:])
        let response = HTTPResponse(status: c.status, headers: c.headers, body: Array(c.body.utf8))
        #expect(c.kind.format.outcome(of: response, channel: channel) == c.outcome)
    }

    @Test func excerptsAreShortOneLineAndScrubbed() throws {
        let channel = try AlertChannel(url: .literal(try #require(Self.url[.wecom]))).resolve(environment: [:])
        let body = Array(("  line one\n\n\tline two KEY-SECRET-1 " + String(repeating: "y", count: 300)).utf8)
        let text = AnswerReading.excerpt(body, channel: channel)
        #expect(text == "line one line two *** " + String(repeating: "y", count: 177) + "…")
        #expect(text.count == 200)
    }

    @Test(
        arguments: [
            (1, nil, 1.0), (2, nil, 2.0), (3, nil, 4.0), (6, nil, 30.0), (1, 5.0, 5.0), (1, 120.0, 30.0),
            (1, -3.0, 0.0),
        ] as [(Int, Double?, Double)])
    func waitsDoubleAndHonourRetryAfterUpToTheCap(retry: Int, retryAfter: Double?, wait: Double) {
        #expect(DeliveryOptions().wait(beforeRetry: retry, retryAfter: retryAfter) == wait)
    }
}
