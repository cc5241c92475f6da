import UAAuditCurl

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

extension AlertDispatcher {
    /// The dispatcher as the CLI makes it, on the libcurl transport: the tests that deliver to
    /// a loopback receiver go over a real connection.
    init(options: DeliveryOptions = DeliveryOptions(), environment: [String: String], stop: DeliveryStop = .never) {
        self.init(options: options, environment: environment, transport: CurlTransport(), stop: stop)
    }
}
