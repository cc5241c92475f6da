/// Why a channel did not take an alert, in the channel's own words where it gave some.
///
/// Every text in it has been scrubbed of the channel's secrets and of control characters.
enum DeliveryFailure: Error, Equatable, Sendable, Codable, CustomStringConvertible {
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

    var description: String {
        guard let hint else { return detail }
        return "\(detail) (\(hint))"
    }

    /// What to do about it, for the failures a person can mend: a refused connection, an
    /// unknown host, a 404, a refused TLS certificate.
    var hint: String? {
        switch self {
        case .connection(let reason) where reason.hasPrefix("connection refused"):
            return "check the URL's host and port, and that the receiver is running"
        case .connection(let reason) where reason.hasPrefix("host not found"):
            return "check the URL's host name and the DNS"
        case .connection(let reason) where reason.hasPrefix("TLS certificate refused") && reason.hasSuffix("mismatch"):
            return "check the URL's host: the certificate is for another name"
        case .connection(let reason) where reason.hasPrefix("TLS certificate refused"):
            return "install the CA in /usr/local/share/ca-certificates and run update-ca-certificates, "
                + "so that it is in /etc/ssl/certs"
        case .http(404, _):
            return "check the URL: the service does not know this webhook"
        default:
            return nil
        }
    }

    /// The failure alone, without ``hint``.
    var detail: String {
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
