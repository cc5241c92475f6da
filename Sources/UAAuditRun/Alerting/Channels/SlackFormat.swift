import FoundationEssentials

/// Slack incoming webhook: `POST https://hooks.slack.com/services/…`, `{"text": …}` in mrkdwn.
///
/// Success is HTTP 200; 429 is the rate limit, with `Retry-After`. Slack cuts text past
/// 40,000 characters and advises at most 4,000, which is the limit kept here (in bytes).
struct SlackFormat: ChannelFormat {
    static let textLimit = 4000

    private struct Body: Encodable { var text: String }

    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest
    {
        let (text, carried) = MessageComposer(notification: notification, style: .slack).fit {
            $0.utf8.count <= Self.textLimit
        }
        var request = HTTPRequest(url: channel.url, body: try AlertJSON.encode(Body(text: text)))
        request.hoursCarried = carried
        return request
    }

    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        if response.status == 200 { return .delivered }
        if (200..<300).contains(response.status) {
            let body = AnswerReading.excerpt(response.body, channel: channel)
            return .fail(.unexpectedAnswer(status: response.status, body: body))
        }
        return AnswerReading.byStatus(response, channel: channel)
    }
}
