/// Sends one POST and waits for its answer: the seam between the delivery rules and the network.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError>
}
