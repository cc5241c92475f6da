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

    /// A second stop signal aborts an attempt waiting on a hung receiver within a poll interval.
    @Test func anAbortEndsAHungAttemptAtOnce() throws {
        let receiver = try WebhookReceiver(routes: ["/hung": [WebhookReceiver.Reply(status: 200, delay: 30)]])
        let started = SocketConnection.now()
        let result = SocketHTTPTransport().send(
            try request(receiver.baseURL + "/hung"), timeout: 20, abort: { SocketConnection.now() - started >= 0.3 })
        let elapsed = SocketConnection.now() - started
        #expect(result == .failure(.aborted))
        #expect(elapsed >= 0.3 && elapsed < 0.6, "\(elapsed) s")
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

/// The same over TLS, against a receiver serving the test certificate.
@Suite struct TLSTransportTests {
    func request(_ url: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)), body: Array("{\"a\":1}".utf8))
    }

    let trusting = SocketHTTPTransport(caFile: WebhookReceiver.testCertificate)

    @Test func aPostOverTLSArrivesWhole() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [.json(#"{"ok":true}"#)]], tls: true)
        let response = try trusting.send(try request(receiver.baseURL + "/hook?key=K"), timeout: 5).get()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        let got = try receiver.requests()
        #expect(got.map(\.path) == ["/hook?key=K"])
        #expect(got.first?.text == #"{"a":1}"#)
        #expect(got.first?.method == "POST")
    }

    @Test func theNameIsCheckedToo() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]], tls: true)
        let response = try trusting.send(
            try request("https://localhost:\(receiver.port)/hook"), timeout: 5
        ).get()
        #expect(response.status == 200)
    }

    @Test func anUntrustedCertificateIsRefusedForGood() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]], tls: true)
        let result = SocketHTTPTransport().send(try request(receiver.baseURL + "/hook"), timeout: 5)
        #expect(result == .failure(.permanent("TLS certificate refused: self-signed certificate")))
        #expect(try receiver.requests().isEmpty)
    }

    @Test func aHugeAnswerOverTLSIsCutAt64KiBAndADripEndsAtTheDeadline() throws {
        let receiver = try WebhookReceiver(
            routes: [
                "/big": [Reply(status: 500, body: String(repeating: "z", count: 1 << 20), repeat: 50)],
                "/slow": [Reply(status: 200, body: String(repeating: "y", count: 50), drip: 0.05)],
            ], tls: true)
        let big = try trusting.send(try request(receiver.baseURL + "/big"), timeout: 10).get()
        #expect(big.status == 500 && big.body.count == 64 << 10 && big.truncated)
        let started = SocketConnection.now()
        #expect(trusting.send(try request(receiver.baseURL + "/slow"), timeout: 0.5) == .failure(.timeout))
        let elapsed = SocketConnection.now() - started
        #expect(elapsed >= 0.5 && elapsed < 0.75, "\(elapsed) s")
    }

    @Test func aCertificateForAnotherNameIsRefused() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]], tls: true, certificate: .otherName)
        let transport = SocketHTTPTransport(caFile: WebhookReceiver.Certificate.otherName.path)
        #expect(
            transport.send(try request(receiver.baseURL + "/hook"), timeout: 5)
                == .failure(.permanent("TLS certificate refused: IP address mismatch")))
        #expect(
            transport.send(try request("https://localhost:\(receiver.port)/hook"), timeout: 5)
                == .failure(.permanent("TLS certificate refused: hostname mismatch")))
        #expect(try receiver.requests().isEmpty)
    }

    typealias Reply = WebhookReceiver.Reply
}
