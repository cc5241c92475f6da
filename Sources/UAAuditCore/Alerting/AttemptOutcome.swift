/// What one attempt came to, as a channel's rules read the answer.
enum AttemptOutcome: Equatable, Sendable {
    case delivered
    /// Worth another try (connection error, timeout, 5xx, rate limit), after `retryAfter`
    /// seconds when the service said so.
    case retry(DeliveryFailure, retryAfter: Double?)
    /// Another try would get the same answer (other 4xx, a service error code).
    case fail(DeliveryFailure)
}
