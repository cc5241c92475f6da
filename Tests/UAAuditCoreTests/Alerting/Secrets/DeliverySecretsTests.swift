import Foundation
import Synchronization
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// What a server echoes back is quoted only without the request's secrets, DingTalk's
/// `timestamp` and `sign` included; a 3xx through the transport double is a failure that is
/// not retried and names the masked target.
@Suite struct DeliverySecretsTests {
    /// Answers with the request's own URL in the body, as a careless server would.
    final class Echo: HTTPTransport {
        let status: Int
        let headers: [String: String]
        let sent = Mutex<[String]>([])
        init(status: Int, headers: [String: String] = [:]) {
            self.status = status
            self.headers = headers
        }
        func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
            let url = request.url.absoluteString
            sent.withLock { $0.append(url) }
            let body =
                #"{"errcode":310000,"errmsg":"sign not match for \#(url) and \#(url.removingPercentEncoding ?? "")"}"#
            return .success(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
        }
    }

    func dispatcher(_ transport: Echo) -> AlertDispatcher {
        AlertDispatcher(
            options: DeliveryOptions(retries: 3, backoff: 0), environment: [:], transport: transport,
            clock: { AlertFixtures.now }, sleep: { _ in })
    }

    @Test func dingTalksTimestampAndSignAreNeverShown() throws {
        let transport = Echo(status: 200)
        let channel = try AlertFixtures.channel(
            #"{"url": "https://oapi.dingtalk.com/robot/send?access_token=TOKEN-0001", "secret": "SEC000test"}"#)
        let result = dispatcher(transport).deliver(try AlertFixtures.notification(), to: channel)
        let url = try #require(transport.sent.withLock { $0.first })
        let parts = try #require(URLComponents(string: url))
        let sign = try #require(parts.queryItems?.first { $0.name == "sign" }?.value)
        let timestamp = try #require(parts.queryItems?.first { $0.name == "timestamp" }?.value)
        #expect(timestamp == "1795957500000")
        let text = result.description
        for secret in ["TOKEN-0001", "SEC000test", timestamp, sign] { #expect(!text.contains(secret), "\(secret)") }
        #expect(
            result.failure
                == .service(
                    field: "errcode", code: 310_000,
                    message:
                        "sign not match for https://oapi.dingtalk.com/robot/send?*** and https://oapi.dingtalk.com/robot/send?***"
                ))
    }

    @Test(arguments: [301, 302, 307, 308])
    func aRedirectFailsAtOnceNamingTheMaskedTarget(status: Int) throws {
        let transport = Echo(status: status, headers: ["Location": "../moved/s3cr3t-segment?token=abc"])
        let channel = try AlertFixtures.channel(#"{"kind": "generic", "url": "https://h.example/a/b?key=K"}"#)
        let result = dispatcher(transport).deliver(try AlertFixtures.notification(), to: channel)
        #expect(result.attempts == 1)
        #expect(transport.sent.withLock { $0.count } == 1)
        let target = Redaction.url("https://h.example/moved/s3cr3t-segment?token=abc")
        #expect(result.failure == .redirect(status: status, location: target))
        #expect(
            result.description
                == "not delivered to generic \(Redaction.url("https://h.example/a/b?key=K")) (1 attempt): HTTP \(status) redirect to \(target), not followed: configure the final URL instead"
        )
    }

    /// Feishu carries `timestamp` and `sign` in the body: an answer that echoes them (here
    /// JSON-escaped, `\/` for `/`, as many servers write them) shows neither.
    @Test func feishusBodyCarriedTimestampAndSignAreNeverShown() throws {
        final class BodyEcho: HTTPTransport {
            let timestamps = Mutex<[String]>([])
            func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
                let body = try! JSONSerialization.jsonObject(with: Data(request.body)) as! [String: Any]
                let timestamp = body["timestamp"] as! String
                timestamps.withLock { $0.append(timestamp) }
                let sign = (body["sign"] as! String).replacingOccurrences(of: "/", with: "\\/")
                let answer =
                    #"{"code":19021,"msg":"sign match fail: ts \#(body["timestamp"]!) sign \#(sign) raw \#(body["sign"]!)"}"#
                return .success(HTTPResponse(status: 200, body: Array(answer.utf8)))
            }
        }
        let transport = BodyEcho()
        let channel = try AlertFixtures.channel(
            #"{"url": "https://open.feishu.cn/open-apis/bot/v2/hook/HOOK-ID-7", "secret": "FSECRET00"}"#)
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: transport,
            clock: { AlertFixtures.now }, sleep: { _ in })
        let result = dispatcher.deliver(try AlertFixtures.notification(), to: channel)
        #expect(transport.timestamps.withLock { $0 } == ["1795957500"])
        #expect(
            result.failure == .service(field: "code", code: 19021, message: "sign match fail: ts *** sign *** raw ***"))
    }

    /// A URL whose query has no `=` and a server that echoes it: neither the query nor the
    /// path shows.
    @Test func aQueryWithoutEqualsEchoedIsNeverShown() throws {
        let transport = Echo(status: 200)
        let channel = try AlertFixtures.channel(
            #"{"kind": "wecom", "url": "http://h.example/cgi-bin/webhook/send/PATHSEG?QUERYNAMESECRET123"}"#)
        let result = dispatcher(transport).deliver(try AlertFixtures.notification(), to: channel)
        #expect(
            result.failure
                == .service(
                    field: "errcode", code: 310_000,
                    message: "sign not match for http://h.example***?*** and http://h.example***?***"))
    }
}
