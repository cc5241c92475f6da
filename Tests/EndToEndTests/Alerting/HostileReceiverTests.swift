import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Webhook servers that answer oddly, through `uaaudit alert test`: a redirect is a failed
/// delivery that is never followed, a huge answer is cut at 64 KiB, a slow one ends at the
/// timeout, and no secret of the URL appears in what uaaudit prints.
@Suite(.requires(.python3)) struct HostileReceiverTests {
    typealias Reply = WebhookReceiver.Reply

    @Test(arguments: [301, 302, 307, 308])
    func aRedirectIsAFailedDeliveryThatNamesTheMaskedTarget(status: Int) throws {
        let receiver = try WebhookReceiver(routes: [
            "/hook": [.redirect(status, to: "/final/moved-secret-segment?token=SECRET-QUERY")],
            "/final/moved-secret-segment": [Reply(status: 200)],
        ])
        let result = try Tool.run([
            "alert", "test", "--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic",
            "--webhook-retries", "2",
        ])
        #expect(result.status == 4)
        let target = "\(receiver.baseURL)/final/moved-secret-segment?token=SECRET-QUERY"
        #expect(
            result.out == "not delivered to generic \(Redaction.url(receiver.baseURL + "/hook")) (1 attempt): "
                + "HTTP \(status) redirect to \(Redaction.url(target)), not followed: configure the final URL instead\n"
        )
        #expect(!result.out.contains("SECRET-QUERY") && !result.out.contains("moved-secret-segment"))
        let requests = try receiver.requests()
        #expect(requests.map(\.path) == ["/hook"])  // never followed, never retried
        #expect(requests[0].method == "POST")
    }

    @Test func aHundredMegabyteAnswerIsCutAt64KiB() throws {
        let megabyte = String(repeating: "x", count: 1 << 20)
        let receiver = try WebhookReceiver(routes: ["/big": [Reply(status: 500, body: megabyte, repeat: 100)]])
        let started = Date()
        let run = try MeasuredRun.run(
            [
                "alert", "test", "--webhook", "\(receiver.baseURL)/big", "--webhook-kind", "generic",
                "--webhook-retries", "0", "--webhook-timeout", "20",
            ], stdin: 0)
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 4)
        let out = String(decoding: run.stdout, as: UTF8.self)
        #expect(
            out.hasPrefix(
                "not delivered to generic \(Redaction.url(receiver.baseURL + "/big")) (1 attempt): HTTP 500: xxxx"))
        #expect(out.hasSuffix("x…\n"))
        #expect(elapsed < 5, "\(elapsed) s")
        #expect(run.peakKiB < MeasuredRun.peakMemoryBoundKiB, "\(run.peakKiB) KiB")
    }

    @Test func aSlowDripEndsAtTheTimeoutToTheMillisecond() throws {
        let receiver = try WebhookReceiver(routes: [
            "/slow": [Reply(status: 200, body: String(repeating: "y", count: 100), drip: 0.1)]
        ])
        let started = Date()
        let result = try Tool.run([
            "alert", "test", "--webhook", "\(receiver.baseURL)/slow", "--webhook-kind", "generic",
            "--webhook-retries", "0", "--webhook-timeout", "1.3",
        ])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 4)
        #expect(
            result.out
                == "not delivered to generic \(Redaction.url(receiver.baseURL + "/slow")) (1 attempt): no answer within 1.3 s\n"
        )
        // The process's own start is in this figure; CurlTransportTests measures the attempt alone.
        #expect(elapsed >= 1.3 && elapsed < 2.8, "\(elapsed) s")
    }

    @Test func aSecretPathAndAnEchoedQueryNeverShow() throws {
        let path = "/webhook/abcdefghijklmnopqrstuvwx"
        let receiver = try WebhookReceiver(routes: [
            path: [
                Reply(
                    status: 403,
                    body: "denied for /webhook/abcdefghijklmnopqrstuvwx with key=k9Z and user bob:pw7; go away")
            ]
        ])
        let url = "http://bob:pw7@127.0.0.1:\(receiver.port)\(path)?key=k9Z"
        let result = try Tool.run(["alert", "test", "--webhook", url, "--webhook-kind", "generic"])
        #expect(result.status == 4)
        #expect(
            result.out == "not delivered to generic \(Redaction.url(url)) (1 attempt): "
                + "HTTP 403: denied for *** with *** and user ***:***; go away\n")
        for secret in ["abcdefghijklmnopqrstuvwx", "k9Z", "pw7", "bob"] {
            #expect(!result.out.contains(secret) && !result.stderr.contains(secret), "\(secret)")
        }
    }

    /// `100 Continue` and `102 Processing` before the final 200 are skipped: delivered, once.
    @Test func interimAnswersBeforeTheFinalOneAreSkipped() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200, interim: [100, 102])]])
        let url = receiver.baseURL + "/hook"
        let result = try Tool.run(["alert", "test", "--webhook", url, "--webhook-kind", "generic"])
        #expect(result.status == 0)
        #expect(result.out == "delivered to generic \(Redaction.url(url)) (1 attempt)\n")
        #expect(try receiver.requests().count == 1)
    }

    /// A receiver whose certificate the system does not trust: not delivered, once (a refused
    /// certificate is not retried), with the hint on where to install the CA.
    @Test func anUntrustedCertificateSaysWhereToInstallTheCA() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [Reply(status: 200)]], tls: true)
        let url = receiver.baseURL + "/hook"
        let result = try Tool.run(["alert", "test", "--webhook", url, "--webhook-kind", "generic"])
        #expect(result.status == 4)
        #expect(
            result.out.hasPrefix(
                "not delivered to generic \(Redaction.url(url)) (1 attempt): TLS certificate refused: "))
        #expect(
            result.out.hasSuffix(
                " (install the CA in /usr/local/share/ca-certificates and run update-ca-certificates, so that it is in /etc/ssl/certs)\n"
            ))
    }
}
