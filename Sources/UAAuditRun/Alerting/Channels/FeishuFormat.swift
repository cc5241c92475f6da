import FoundationEssentials

/// Feishu (飞书) or Lark custom bot: `POST …/open-apis/bot/v2/hook/ID`, a text message.
///
/// With a secret, `timestamp` (seconds, as a string) and `sign` go in the body
/// (``WebhookSigning/feishu``). The body may be at most 20 KB. Success is `code` 0 (older
/// answers say `StatusCode` 0); `code` 11232 is the rate limit.
struct FeishuFormat: ChannelFormat {
    static let bodyLimit = 20_000
    static let rateLimitCodes: Set<Int> = [11232]

    private struct Body: Encodable {
        struct Content: Encodable { var text: String }
        var msgType = "text"
        var content: Content
        var timestamp: String?
        var sign: String?
        enum CodingKeys: String, CodingKey {
            case content, timestamp, sign
            case msgType = "msg_type"
        }
    }

    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest
    {
        var body = Body(content: .init(text: ""))
        if let secret = channel.secret {
            let timestamp = Int64(now.timeIntervalSince1970.rounded(.down))
            body.timestamp = String(timestamp)
            body.sign = WebhookSigning.feishu(secret: secret, timestampSeconds: timestamp)
        }
        let skeleton = body
        let (text, carried) = MessageComposer(notification: notification, style: .plain).fit { text in
            var candidate = skeleton
            candidate.content.text = text
            return AlertJSON.size(candidate) <= Self.bodyLimit
        }
        body.content.text = text
        var request = HTTPRequest(url: channel.url, body: try AlertJSON.encode(body))
        request.hoursCarried = carried
        request.bodySecrets = [skeleton.timestamp, skeleton.sign].compactMap { $0 }
        return request
    }

    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        AnswerReading.byCode(
            response, channel: channel, fields: [("code", "msg"), ("StatusCode", "StatusMessage")],
            rateLimits: Self.rateLimitCodes)
    }
}
