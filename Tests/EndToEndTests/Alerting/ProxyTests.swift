import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Webhooks go through the proxy the usual environment variables name (`http_proxy`,
/// `https_proxy`), except to the hosts `no_proxy` lists: libcurl's rules, checked against a
/// loopback forward proxy (the test receiver in proxy mode).
@Suite(.requires(.python3)) struct ProxyTests {
    typealias Reply = WebhookReceiver.Reply

    /// Any proxy setting the test process inherited, cleared: only the ones a test names count.
    static let noProxies = [
        "http_proxy": "", "https_proxy": "", "HTTPS_PROXY": "", "all_proxy": "", "ALL_PROXY": "", "no_proxy": "",
        "NO_PROXY": "",
    ]

    func send(to url: String, environment: [String: String]) throws -> Tool.Result {
        try Tool.run(
            ["alert", "test", "--webhook", url, "--webhook-kind", "generic", "--webhook-retries", "0"],
            environment: Self.noProxies.merging(environment) { $1 })
    }

    @Test func anHTTPWebhookGoesThroughHTTPProxyUnlessNoProxyNamesItsHost() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]])
        let proxy = try WebhookReceiver(routes: [:], proxy: true)
        let url = receiver.baseURL + "/hook?key=K"
        let proxied = try send(to: url, environment: ["http_proxy": proxy.baseURL])
        #expect(proxied.status == 0)
        #expect(proxied.out == "delivered to generic \(Redaction.url(url)) (1 attempt)\n")
        #expect(try proxy.requests().map(\.path) == [url])
        #expect(try proxy.requests().map(\.method) == ["POST"])
        #expect(try receiver.requests().map(\.path) == ["/hook?key=K"])

        let direct = try send(to: url, environment: ["http_proxy": proxy.baseURL, "no_proxy": "127.0.0.1"])
        #expect(direct.status == 0)
        #expect(try proxy.requests().count == 1)
        #expect(try receiver.requests().map(\.path) == ["/hook?key=K", "/hook?key=K"])
    }

    /// `https://` goes through a CONNECT tunnel: the TLS handshake with the receiver travels
    /// through it (and fails on the test certificate, which the system does not trust), and
    /// the proxy sees only the host and port, never the path or its key.
    @Test func anHTTPSWebhookTunnelsThroughHTTPSProxyUnlessNoProxyNamesItsHost() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]], tls: true)
        let proxy = try WebhookReceiver(routes: [:], proxy: true)
        let url = receiver.baseURL + "/hook?key=SECRET-KEY"
        let refused =
            "not delivered to generic \(Redaction.url(url)) (1 attempt): TLS certificate refused: self-signed certificate"
        let proxied = try send(to: url, environment: ["https_proxy": proxy.baseURL])
        #expect(proxied.status == 4)
        #expect(proxied.out.hasPrefix(refused))
        let tunnels = try proxy.requests()
        #expect(tunnels.map(\.method) == ["CONNECT"])
        #expect(tunnels.map(\.path) == ["127.0.0.1:\(receiver.port)"])

        let direct = try send(to: url, environment: ["https_proxy": proxy.baseURL, "no_proxy": "127.0.0.1"])
        #expect(direct.status == 4)
        #expect(direct.out.hasPrefix(refused))
        #expect(try proxy.requests().count == 1)
    }

    /// A proxy that cannot reach the host: the delivery fails, it is not sent around the proxy.
    @Test func aProxyThatCannotConnectFailsTheDelivery() throws {
        let proxy = try WebhookReceiver(routes: [:], proxy: true)
        let port = try WebhookReceiver.refusingPort()
        let url = "https://127.0.0.1:\(port)/hook"
        let result = try send(to: url, environment: ["https_proxy": proxy.baseURL])
        #expect(result.status == 4)
        #expect(try proxy.requests().map(\.path) == ["127.0.0.1:\(port)"])
        #expect(result.out.hasPrefix("not delivered to generic \(Redaction.url(url)) (1 attempt): "))
    }
}
