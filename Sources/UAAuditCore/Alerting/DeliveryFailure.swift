/// Why a channel did not take an alert, in the channel's own words where it gave some.
///
/// Every text in it has been scrubbed of the channel's secrets and of control characters.
package enum DeliveryFailure: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The channel could not be resolved (an unset environment variable, an unreadable file).
    case configuration(String)
    /// No connection: refused, reset, host not found.
    case connection(String)
    /// No answer within the timeout.
    case timeout(seconds: Double)
    /// An HTTP status that is not success, with the start of the answer.
    case http(status: Int, body: String)
    /// The service's own error code and message (`errcode 93000 invalid webhook url`).
    case service(field: String, code: Int, message: String)
    /// A success status, but an answer the service never gives on success.
    case unexpectedAnswer(status: Int, body: String)
    /// A 3xx: redirects are never followed; `location` is shown masked (nil when none was given).
    case redirect(status: Int, location: String?)

    package var description: String {
        switch self {
        case .configuration(let message): return message
        case .connection(let reason): return reason
        case .timeout(let seconds): return "no answer within \(DeliveryOptions.seconds(seconds))"
        case .http(let status, let body): return body.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(body)"
        case .service(let field, let code, let message): return "\(field) \(code) \(message)"
        case .unexpectedAnswer(let status, let body): return "unexpected answer (HTTP \(status)): \(body)"
        case .redirect(let status, let location):
            return "HTTP \(status) redirect to \(location ?? "(no Location given)"), not followed: "
                + "configure the final URL instead"
        }
    }
}
