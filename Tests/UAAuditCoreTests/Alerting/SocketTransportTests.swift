import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditCore

/// The `http://` transport against a real loopback server: the whole attempt ends at the
/// deadline however the server drips, and no more than 64 KiB of an answer is kept.
@Suite struct SocketTransportTests {
    func request(_ url: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)), body: Array("{}".utf8))
    }

    @Test(arguments: [0.25, 0.7])
    func aDrippingAnswerEndsAtTheDeadline(timeout: Double) throws {
        let receiver = try WebhookReceiver(routes: [
            "/slow": [WebhookReceiver.Reply(status: 200, body: String(repeating: "y", count: 50), drip: 0.05)]
        ])
        let started = SocketConnection.now()
        let result = SocketHTTPTransport().send(try request(receiver.baseURL + "/slow"), timeout: timeout)
        let elapsed = SocketConnection.now() - started
        #expect(result == .failure(.timeout))
        #expect(elapsed >= timeout && elapsed < timeout + 0.25, "\(elapsed) s")
    }

    @Test func aHugeAnswerIsCutAt64KiB() throws {
        let receiver = try WebhookReceiver(routes: [
            "/big": [WebhookReceiver.Reply(status: 502, body: String(repeating: "z", count: 1 << 20), repeat: 20)]
        ])
        let result = SocketHTTPTransport().send(try request(receiver.baseURL + "/big"), timeout: 10)
        let response = try result.get()
        #expect(response.status == 502)
        #expect(response.body.count == 64 << 10)
        #expect(response.truncated)
    }

    @Test func aRedirectIsReturnedNotFollowed() throws {
        let receiver = try WebhookReceiver(routes: ["/r": [.redirect(307, to: "/elsewhere")]])
        let response = try SocketHTTPTransport().send(try request(receiver.baseURL + "/r"), timeout: 5).get()
        #expect(response.status == 307)
        #expect(response.headers["location"] == "/elsewhere")
        #expect(try receiver.requests().map(\.path) == ["/r"])
        #expect(try receiver.requests().first?.text == "{}")
    }

    @Test func aRefusedConnectionSaysSo() throws {
        let port = try WebhookReceiver.refusingPort()
        #expect(
            SocketHTTPTransport().send(try request("http://127.0.0.1:\(port)/x"), timeout: 2)
                == .failure(.connection("connection refused")))
    }
}
