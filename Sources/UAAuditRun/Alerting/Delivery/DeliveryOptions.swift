import UAAuditInput

/// How hard delivery tries: the timeout of one attempt, the retries and the waits between them.
package struct DeliveryOptions: Sendable, Equatable {
    /// Seconds one attempt may take, connection included.
    package var timeout: Double
    /// Attempts after the first, made on connection errors, timeouts, 5xx and rate limits.
    package var retries: Int
    /// Seconds before the first retry; each later wait doubles.
    var backoff: Double
    /// The longest wait before a retry, a service's `Retry-After` included.
    var maxWait: Double
    /// The `User-Agent` header of the requests.
    var userAgent: String

    package init(
        timeout: Double = Settings.webhookTimeout.defaultValue, retries: Int = Settings.webhookRetries.defaultInt,
        backoff: Double = 1, maxWait: Double = 30,
        userAgent: String = "uaaudit"
    ) {
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = max(0, backoff)
        self.maxWait = max(0, maxWait)
        self.userAgent = userAgent
    }

    /// Seconds to wait before retry number `retry` (1 for the first): the service's
    /// `Retry-After` when it gave one, else the doubling backoff; never above ``maxWait``.
    func wait(beforeRetry retry: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maxWait) }
        var wait = backoff
        for _ in 1..<max(retry, 1) { wait *= 2 }
        return min(wait, maxWait)
    }

    /// `10 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int64(value)) s" : "\(value) s"
    }
}
