import FoundationEssentials

/// DingTalk (钉钉) custom robot: `POST …/robot/send?access_token=TOKEN`, a markdown message.
///
/// With a secret, `&timestamp=<ms>&sign=<signature>` is appended (``WebhookSigning/dingTalk``).
/// Success is HTTP 200 and `errcode` 0; `errcode` 130101 is the rate limit (20 a minute).
struct DingTalkFormat: ChannelFormat {
    /// DingTalk's limit on a markdown message's text, in bytes.
    static let textLimit = 20_000
    static let rateLimitCodes: Set<Int> = [130_101]

    private struct Body: Encodable {
        struct Content: Encodable {
            var title: String
            var text: String
        }
        var msgtype = "markdown"
        var markdown: Content
    }

    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest
    {
        let composer = MessageComposer(notification: notification, style: .dingTalkMarkdown)
        let (text, carried) = composer.fit { $0.utf8.count <= Self.textLimit }
        let body = try AlertJSON.encode(Body(markdown: .init(title: composer.title, text: text)))
        var url = channel.url
        if let secret = channel.secret {
            let timestamp = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
            let sign = WebhookSigning.dingTalk(secret: secret, timestampMilliseconds: timestamp)
            let separator = channel.url.query == nil ? "?" : "&"
            let signed =
                channel.url.absoluteString + separator
                + "timestamp=\(timestamp)&sign=\(WebhookSigning.percentEncoded(sign))"
            guard let parsed = URL(string: signed) else {
                throw DeliveryFailure.configuration("cannot append the signature to \(channel.shownURL)")
            }
            url = parsed
        }
        var request = HTTPRequest(url: url, body: body)
        request.hoursCarried = carried
        return request
    }

    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        AnswerReading.byCode(
            response, channel: channel, fields: [("errcode", "errmsg")], rateLimits: Self.rateLimitCodes)
    }
}
