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
