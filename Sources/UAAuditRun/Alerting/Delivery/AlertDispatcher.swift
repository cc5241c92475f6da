import FoundationEssentials
import Glibc
import UAAuditInput

/// Sends a notification to channels and says, per channel, whether it got there.
///
/// Synchronous, one channel after the other, no state kept between calls: the caller (scan,
/// or the cron mode, which keeps what was not delivered for its next run) decides what a
/// failure means. Each attempt has ``DeliveryOptions/timeout``; connection errors, timeouts,
/// 5xx and rate limits are retried up to ``DeliveryOptions/retries`` times with a doubling
/// backoff or the service's `Retry-After`; other 4xx and service errors are not retried.
package struct AlertDispatcher: Sendable {
    var options: DeliveryOptions
    let environment: [String: String]
    let transport: any HTTPTransport
    let clock: @Sendable () -> Date
    let sleep: @Sendable (Double) -> Void
    /// Asked before each retry and during waits and attempts (``DeliveryStop``).
    let stop: DeliveryStop

    /// `environment` is where `url_env` and `secret_env` are looked up. Once `stop` is
    /// requested, the attempt in flight is the last (a second request aborts it) and a wait
    /// before a retry ends at once.
    package init(
        options: DeliveryOptions = DeliveryOptions(), environment: [String: String],
        transport: any HTTPTransport, stop: DeliveryStop = .never
    ) {
        self.init(
            options: options, environment: environment, transport: transport, clock: { Date() },
            sleep: { seconds in Self.pause(seconds, unless: stop) }, stop: stop)
    }

    init(
        options: DeliveryOptions, environment: [String: String], transport: any HTTPTransport,
        clock: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Double) -> Void,
        stop: DeliveryStop = .never
    ) {
        self.options = options
        self.environment = environment
        self.transport = transport
        self.clock = clock
        self.sleep = sleep
        self.stop = stop
    }

    /// Sleeps `seconds`, in slices of ``DeliveryStop/pollInterval``, ending early once `stop`
    /// is requested.
    static func pause(_ seconds: Double, unless stop: DeliveryStop) {
        let end = Date().addingTimeInterval(seconds)
        while !stop.requested {
            let left = end.timeIntervalSinceNow
            if left <= 0 { return }
            usleep(useconds_t(min(left, DeliveryStop.pollInterval) * 1e6))
        }
    }

    /// One result per channel, in the order of `channels`. A channel that cannot be resolved
    /// (an unset environment variable, say) is not delivered, after 0 attempts.
    func deliver(_ notification: AlertNotification, to channels: [AlertChannel]) -> [DeliveryResult] {
        channels.map { channel in
            do throws(AlertError) {
                return deliver(notification, to: try channel.resolve(environment: environment))
            } catch {
                return DeliveryResult(
                    channel: channel.description, kind: channel.kind, delivered: false, attempts: 0,
                    failure: .configuration(error.description))
            }
        }
    }

    /// The Base64 `user:password` of a URL with credentials (`https://user:pass@host/…`),
    /// percent-decoded, for an `Authorization: Basic` header; nil without a user. The header is
    /// never shown: the URL is masked and an answer that echoes the token is scrubbed of it.
    static func basicCredentials(of url: URL) -> String? {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let user = parts.percentEncodedUser, !user.isEmpty
        else { return nil }
        let password = parts.percentEncodedPassword ?? ""
        let plain = (PercentEncoding.decode(user) ?? user) + ":" + (PercentEncoding.decode(password) ?? password)
        return Data(plain.utf8).base64EncodedString()
    }

    /// `notification` cut into messages that each fit the channel's size limit whole, in hour
    /// order, each hour in exactly one: a backlog too long for one chat message goes out as
    /// several in the same run instead of one that leaves hours out. A channel that cannot be
    /// resolved, or a format without a limit, gets one message.
    func batches(of notification: AlertNotification, for channel: AlertChannel) -> [AlertNotification] {
        guard let resolved = try? channel.resolve(environment: environment) else { return [notification] }
        let format = resolved.kind.format
        var batches: [AlertNotification] = []
        var rest = notification.hours[...]
        while !rest.isEmpty {
            var count = rest.count
            while true {
                let candidate = notification.with(hours: Array(rest.prefix(count)))
                guard let request = try? format.request(for: candidate, to: resolved, now: clock()),
                    let carried = request.hoursCarried, carried < count
                else { break }
                count = max(1, carried)
                if carried <= 1 { break }
            }
            batches.append(notification.with(hours: Array(rest.prefix(count))))
            rest = rest.dropFirst(count)
        }
        return batches.isEmpty ? [notification] : batches
    }

    /// Like ``deliver(_:to:)-([AlertChannel])``, but a notification too long for a channel's
    /// size limit goes as several messages (``batches(of:for:)``) instead of one that leaves
    /// hours out: one result per channel, delivered when every message was (the attempts
    /// added up; after a refused message the rest are not sent).
    package func deliverWhole(_ notification: AlertNotification, to channels: [AlertChannel]) -> [DeliveryResult] {
        channels.map { channel in
            var total: DeliveryResult?
            for batch in batches(of: notification, for: channel) {
                let result = deliver(batch, to: [channel])[0]
                if var sum = total {
                    sum.attempts += result.attempts
                    sum.delivered = result.delivered
                    sum.failure = result.failure
                    total = sum
                } else {
                    total = result
                }
                if !result.delivered { break }
            }
            return total!
        }
    }

    /// Where a 3xx points, resolved against the request's URL and masked.
    func redirectTarget(_ response: HTTPResponse, of request: HTTPRequest) -> String? {
        guard let location = response.headers["location"] else { return nil }
        guard let url = URL(string: location, relativeTo: request.url) else { return Redaction.url(location) }
        return Redaction.url(url.absoluteString)
    }

    /// Delivers to one resolved channel, retrying as ``DeliveryOptions`` says.
    func deliver(_ notification: AlertNotification, to channel: ResolvedChannel) -> DeliveryResult {
        let format = channel.kind.format
        var attempts = 0
        func result(_ failure: DeliveryFailure?) -> DeliveryResult {
            DeliveryResult(
                channel: channel.description, kind: channel.kind, delivered: failure == nil, attempts: attempts,
                failure: failure)
        }
        while true {
            var request: HTTPRequest
            do {
                request = try format.request(for: notification, to: channel, now: clock())
            } catch {
                return result(error)
            }
            request.headers["User-Agent"] = options.userAgent
            let credentials = Self.basicCredentials(of: request.url)
            if let credentials { request.headers["Authorization"] = "Basic " + credentials }
            attempts += 1
            let outcome: AttemptOutcome
            let stop = self.stop
            switch transport.send(request, timeout: options.timeout, abort: { stop.aborted }) {
            case .failure(.aborted):
                return result(.connection("attempt aborted by a second stop signal"))
            case .success(let response) where (300..<400).contains(response.status):
                outcome = .fail(.redirect(status: response.status, location: redirectTarget(response, of: request)))
            case .success(let response):
                // The request may carry more secrets than the channel's (DingTalk's timestamp
                // and sign in the URL, Feishu's in the body): an answer that echoes them is
                // scrubbed of them too.
                outcome = format.outcome(
                    of: response,
                    channel: channel.adding(
                        secretsOf: request.url, extra: request.bodySecrets + (credentials.map { [$0] } ?? [])))
            case .failure(.timeout): outcome = .retry(.timeout(seconds: options.timeout), retryAfter: nil)
            case .failure(.connection(let reason)): outcome = .retry(.connection(reason), retryAfter: nil)
            case .failure(.permanent(let reason)): outcome = .fail(.connection(reason))
            }
            switch outcome {
            case .delivered:
                return result(nil)
            case .fail(let failure):
                return result(failure)
            case .retry(let failure, let retryAfter):
                // Stopping: the attempt just made was the last, and no wait either.
                if attempts > options.retries || stop.requested { return result(failure) }
                sleep(options.wait(beforeRetry: attempts, retryAfter: retryAfter))
                if stop.requested { return result(failure) }
            }
        }
    }
}
