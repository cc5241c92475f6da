/// What became of a notification on one channel. Safe to print: the channel is shown redacted.
public struct DeliveryResult: Equatable, Sendable, CustomStringConvertible {
    /// The channel as uaaudit shows it (`wecom https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***`).
    public var channel: String
    /// Nil when the channel could not be resolved (so its kind may be unknown).
    public var kind: ChannelKind?
    public var delivered: Bool
    /// Requests made (0 when the channel could not be resolved).
    public var attempts: Int
    /// Why the last attempt failed; nil when delivered.
    public var failure: DeliveryFailure?

    public init(channel: String, kind: ChannelKind?, delivered: Bool, attempts: Int, failure: DeliveryFailure?) {
        self.channel = channel
        self.kind = kind
        self.delivered = delivered
        self.attempts = attempts
        self.failure = failure
    }

    /// `delivered to slack https://hooks.slack.com/services/*** (1 attempt)` or
    /// `not delivered to wecom …?key=*** (1 attempt): errcode 93000 invalid webhook url`.
    public var description: String {
        let tries = "\(attempts) attempt\(attempts == 1 ? "" : "s")"
        if delivered { return "delivered to \(channel) (\(tries))" }
        return "not delivered to \(channel) (\(tries)): \(failure?.description ?? "unknown reason")"
    }
}
