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
    package func send(_ request: HTTPRequest, timeout: Double, abort: @escaping @Sendable () -> Bool)
        -> Result<HTTPResponse, TransportError>
    {
        abort() ? .failure(.aborted) : send(request, timeout: timeout)
    }

    /// The most of an answer kept: 64 KiB (a service's answer is a few hundred bytes).
    package static var answerLimit: Int { 64 << 10 }
}
