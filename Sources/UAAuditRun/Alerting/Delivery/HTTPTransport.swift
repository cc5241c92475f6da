import FoundationEssentials

/// Sends one POST and waits for its answer: the seam between the delivery rules and the network.
///
/// An implementation never follows a redirect (a 3xx is the answer), keeps at most
/// ``answerLimit`` bytes of an answer (``HTTPResponse/truncated`` says it cut one), and ends the
/// whole attempt, connection to last byte, within `timeout` seconds. The tests replace it with
/// a double; the real one, on libcurl, is `CurlTransport` in the `UAAuditCurl` target, which
/// the CLI hands to ``AlertDispatcher``: the core links no HTTP client.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError>
    /// As ``send(_:timeout:)``, ended early with ``TransportError/aborted`` once `abort` says so.
    func send(_ request: HTTPRequest, timeout: Double, abort: @escaping @Sendable () -> Bool)
        -> Result<HTTPResponse, TransportError>
}

extension HTTPTransport {
    /// A transport that cannot be interrupted (a test double) runs the attempt to its end.
    func send(_ request: HTTPRequest, timeout: Double, abort: @escaping @Sendable () -> Bool)
        -> Result<HTTPResponse, TransportError>
    {
        abort() ? .failure(.aborted) : send(request, timeout: timeout)
    }

    /// The most of an answer kept: 64 KiB (a service's answer is a few hundred bytes).
    package static var answerLimit: Int { 64 << 10 }
}

/// A POST to make: where, the JSON body, and the headers.
package struct HTTPRequest: Sendable, Equatable {
    package var url: URL
    package var body: [UInt8]
    package var headers: [String: String]
    /// How many of the notification's hours (the first ones) the message shows, when a size
    /// limit made it leave some out; nil when it carries them all.
    var hoursCarried: Int? = nil
    /// Secret values the body carries (Feishu's `timestamp` and `sign`): an answer that echoes
    /// them is scrubbed of them, like the URL's.
    var bodySecrets: [String] = []

    init(url: URL, body: [UInt8], headers: [String: String] = ["Content-Type": "application/json"]) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}

/// A service's answer: status, headers (names in lower case) and body.
package struct HTTPResponse: Sendable, Equatable {
    var status: Int
    var headers: [String: String]
    /// The first bytes of the answer, at most ``HTTPTransport/answerLimit``.
    var body: [UInt8]
    /// True when the answer was longer and the rest was not read.
    package var truncated = false

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }
}

/// Why a request got no HTTP answer at all.
package enum TransportError: Error, Equatable, Sendable {
    /// No answer within the timeout.
    case timeout
    /// The connection failed (refused, reset, host not found); worth another try.
    case connection(String)
    /// A failure another try will not mend (TLS certificate, unsupported URL).
    case permanent(String)
    /// Given up on because the operator asked twice to stop (``DeliveryStop/aborted``).
    case aborted
}
