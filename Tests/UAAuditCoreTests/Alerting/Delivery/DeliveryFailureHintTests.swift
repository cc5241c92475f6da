import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A failure a person can mend says what to do, in one short hint; the others say only what.
@Suite struct DeliveryFailureHintTests {
    @Test(arguments: [
        (
            DeliveryFailure.connection("connection refused"),
            "connection refused (check the URL's host and port, and that the receiver is running)"
        ),
        (.connection("host not found"), "host not found (check the URL's host name and the DNS)"),
        (
            .connection("TLS certificate refused: unable to get local issuer certificate"),
            "TLS certificate refused: unable to get local issuer certificate (install the CA in "
                + "/usr/local/share/ca-certificates and run update-ca-certificates, so that it is in /etc/ssl/certs)"
        ),
        (
            .connection("TLS certificate refused: hostname mismatch"),
            "TLS certificate refused: hostname mismatch (check the URL's host: the certificate is for another name)"
        ),
        (.http(status: 404, body: ""), "HTTP 404 (check the URL: the service does not know this webhook)"),
        (
            .http(status: 404, body: "no such hook"),
            "HTTP 404: no such hook (check the URL: the service does not know this webhook)"
        ),
        (.http(status: 500, body: "boom"), "HTTP 500: boom"),
        (.timeout(seconds: 2), "no answer within 2 s"),
    ])
    func descriptionsCarryTheirHint(failure: DeliveryFailure, text: String) {
        #expect(failure.description == text)
    }
}
