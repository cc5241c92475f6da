import Foundation
import Glibc
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditCurl
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Seconds of a monotonic clock.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The `http://` transport against a real loopback server: the whole attempt ends at the
/// deadline however the server drips, and no more than 64 KiB of an answer is kept.
@Suite struct CurlTransportTests {
    /// libcurl times the attempt on `CLOCK_MONOTONIC_RAW`, these tests on `CLOCK_MONOTONIC`
    /// (which NTP slews): the two may differ by some tens of microseconds in a second. The
    /// deadline is kept to the millisecond.
    static let clockSkew = 0.001

    func request(_ url: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)), body: Array("{}".utf8))
    }

    @Test(arguments: [0.25, 0.7])
    func aDrippingAnswerEndsAtTheDeadline(timeout: Double) throws {
        let receiver = try WebhookReceiver(routes: [
            "/slow": [WebhookReceiver.Reply(status: 200, body: String(repeating: "y", count: 50), drip: 0.05)]
        ])
        let started = monotonicSeconds()
        let result = CurlTransport().send(try request(receiver.baseURL + "/slow"), timeout: timeout)
        let elapsed = monotonicSeconds() - started
        #expect(result == .failure(.timeout))
        #expect(elapsed >= timeout - Self.clockSkew && elapsed < timeout + 0.25, "\(elapsed) s")
    }

    /// A second stop signal aborts an attempt waiting on a hung receiver within a poll interval.
    @Test func anAbortEndsAHungAttemptAtOnce() throws {
        let receiver = try WebhookReceiver(routes: ["/hung": [WebhookReceiver.Reply(status: 200, delay: 30)]])
        let started = monotonicSeconds()
        let result = CurlTransport().send(
            try request(receiver.baseURL + "/hung"), timeout: 20, abort: { monotonicSeconds() - started >= 0.3 })
        let elapsed = monotonicSeconds() - started
        #expect(result == .failure(.aborted))
        #expect(elapsed >= 0.3 && elapsed < 0.6, "\(elapsed) s")
    }

    @Test func aHugeAnswerIsCutAt64KiB() throws {
        let receiver = try WebhookReceiver(routes: [
            "/big": [WebhookReceiver.Reply(status: 502, body: String(repeating: "z", count: 1 << 20), repeat: 20)]
        ])
        let result = CurlTransport().send(try request(receiver.baseURL + "/big"), timeout: 10)
        let response = try result.get()
        #expect(response.status == 502)
        #expect(response.body.count == 64 << 10)
        #expect(response.truncated)
    }

    @Test func aRedirectIsReturnedNotFollowed() throws {
        let receiver = try WebhookReceiver(routes: ["/r": [.redirect(307, to: "/elsewhere")]])
        let response = try CurlTransport().send(try request(receiver.baseURL + "/r"), timeout: 5).get()
        #expect(response.status == 307)
        #expect(response.headers["location"] == "/elsewhere")
        #expect(try receiver.requests().map(\.path) == ["/r"])
        #expect(try receiver.requests().first?.text == "{}")
    }

    @Test func aRefusedConnectionSaysSo() throws {
        let port = try WebhookReceiver.refusingPort()
        #expect(
            CurlTransport().send(try request("http://127.0.0.1:\(port)/x"), timeout: 2)
                == .failure(.connection("connection refused")))
    }
}

/// The same over TLS, against a receiver serving the test certificate.
@Suite struct TLSTransportTests {
    func request(_ url: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)), body: Array("{\"a\":1}".utf8))
    }

    let trusting = CurlTransport(caFile: WebhookReceiver.testCertificate)

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
        let result = CurlTransport().send(try request(receiver.baseURL + "/hook"), timeout: 5)
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
        let started = monotonicSeconds()
        #expect(trusting.send(try request(receiver.baseURL + "/slow"), timeout: 0.5) == .failure(.timeout))
        let elapsed = monotonicSeconds() - started
        #expect(elapsed >= 0.5 - CurlTransportTests.clockSkew && elapsed < 0.75, "\(elapsed) s")
    }

    @Test func aCertificateForAnotherNameIsRefused() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]], tls: true, certificate: .otherName)
        let transport = CurlTransport(caFile: WebhookReceiver.Certificate.otherName.path)
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

/// What the transport sends: the request's own headers, no credentials from the URL (the
/// dispatcher turns those into its `Authorization` header), and no wait for `100 Continue`.
@Suite struct CurlTransportRequestTests {
    @Test func credentialsInTheURLAreNotSentByTheTransport() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [WebhookReceiver.Reply(status: 204)]])
        let url = try #require(URL(string: "http://user:pass@127.0.0.1:\(receiver.port)/hook?k=v"))
        var request = HTTPRequest(url: url, body: Array(String(repeating: "b", count: 4096).utf8))
        request.headers["X-Test"] = "one\r\nInjected: two"
        let response = try CurlTransport().send(request, timeout: 5).get()
        #expect(response.status == 204)
        let got = try #require(try receiver.requests().first)
        #expect(got.path == "/hook?k=v")
        #expect(got.headers["authorization"] == nil)
        #expect(got.headers["expect"] == nil)
        #expect(got.headers["x-test"] == "oneInjected: two")
        #expect(got.headers["content-type"] == "application/json")
        #expect(got.body.count == 4096)
    }

    @Test func headersOver64KiBEndTheAttempt() throws {
        let receiver = try WebhookReceiver(routes: [
            "/hook": [WebhookReceiver.Reply(status: 200, headers: ["X-Big": String(repeating: "h", count: 70_000)])]
        ])
        let url = try #require(URL(string: receiver.baseURL + "/hook"))
        #expect(
            CurlTransport().send(HTTPRequest(url: url, body: []), timeout: 5)
                == .failure(.connection("answer headers over 65536 bytes")))
    }

    @Test func interimAnswersAreSkippedForTheFinalOne() throws {
        let receiver = try WebhookReceiver(routes: [
            "/hook": [WebhookReceiver.Reply(status: 202, body: "final", interim: [100, 102, 103])]
        ])
        let url = try #require(URL(string: receiver.baseURL + "/hook"))
        let response = try CurlTransport().send(HTTPRequest(url: url, body: []), timeout: 5).get()
        #expect(response.status == 202)
        #expect(String(decoding: response.body, as: UTF8.self) == "final")
        #expect(response.headers["content-length"] == "5")
        #expect(!response.truncated)
        // An empty body is sent as one (Content-Length: 0), not read from stdin.
        #expect(try receiver.requests().map(\.body) == [[]])
        #expect(try receiver.requests().first?.headers["content-length"] == "0")
    }
}
