/// What became of a notification on one channel. Safe to print: the channel is shown redacted.
package struct DeliveryResult: Equatable, Sendable, CustomStringConvertible {
    /// The channel as uaaudit shows it (`wecom https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***`).
    var channel: String
    /// Nil when the channel could not be resolved (so its kind may be unknown).
    var kind: ChannelKind?
    package var delivered: Bool
    /// Requests made (0 when the channel could not be resolved).
    var attempts: Int
    /// Why the last attempt failed; nil when delivered.
    var failure: DeliveryFailure?

    init(channel: String, kind: ChannelKind?, delivered: Bool, attempts: Int, failure: DeliveryFailure?) {
        self.channel = channel
        self.kind = kind
        self.delivered = delivered
        self.attempts = attempts
        self.failure = failure
    }

    /// `delivered to slack https://hooks.slack.com/services/*** (1 attempt)` or
    /// `not delivered to wecom …?key=*** (1 attempt): errcode 93000 invalid webhook url`.
    package var description: String {
        let tries = "\(attempts) attempt\(attempts == 1 ? "" : "s")"
        if delivered { return "delivered to \(channel) (\(tries))" }
        return "not delivered to \(channel) (\(tries)): \(failure?.description ?? "unknown reason")"
    }
}

/// What one attempt came to, as a channel's rules read the answer.
enum AttemptOutcome: Equatable, Sendable {
    case delivered
    /// Worth another try (connection error, timeout, 5xx, rate limit), after `retryAfter`
    /// seconds when the service said so.
    case retry(DeliveryFailure, retryAfter: Double?)
    /// Another try would get the same answer (other 4xx, a service error code).
    case fail(DeliveryFailure)
}
