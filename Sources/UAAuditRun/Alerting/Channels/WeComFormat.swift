import FoundationEssentials

/// WeCom (企业微信) group robot: `POST …/cgi-bin/webhook/send?key=KEY`.
///
/// Markdown content is limited to 4096 bytes, text to 2048; success is HTTP 200 and
/// `errcode` 0; `errcode` 45009 is the rate limit (20 messages a minute per robot).
struct WeComFormat: ChannelFormat {
    static let markdownLimit = 4096
    static let textLimit = 2048
    static let rateLimitCodes: Set<Int> = [45009]

    private struct MarkdownBody: Encodable {
        struct Content: Encodable { var content: String }
        var msgtype = "markdown"
        var markdown: Content
    }

    private struct TextBody: Encodable {
        struct Content: Encodable {
            var content: String
            var mentionedList: [String]?
            var mentionedMobileList: [String]?
            enum CodingKeys: String, CodingKey {
                case content
                case mentionedList = "mentioned_list"
                case mentionedMobileList = "mentioned_mobile_list"
            }
        }
        var msgtype = "text"
        var text: Content
    }

    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest
    {
        let body: [UInt8]
        let carried: Int
        switch channel.msgtype {
        case .markdown:
            let (content, hours) = MessageComposer(notification: notification, style: .markdown).fit {
                $0.utf8.count <= Self.markdownLimit
            }
            carried = hours
            body = try AlertJSON.encode(MarkdownBody(markdown: .init(content: content)))
        case .text:
            let (content, hours) = MessageComposer(notification: notification, style: .plain).fit {
                $0.utf8.count <= Self.textLimit
            }
            carried = hours
            body = try AlertJSON.encode(
                TextBody(
                    text: .init(
                        content: content, mentionedList: channel.mentionedList.isEmpty ? nil : channel.mentionedList,
                        mentionedMobileList: channel.mentionedMobileList.isEmpty ? nil : channel.mentionedMobileList)))
        }
        var request = HTTPRequest(url: channel.url, body: body)
        request.hoursCarried = carried
        return request
    }

    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        AnswerReading.byCode(
            response, channel: channel, fields: [("errcode", "errmsg")], rateLimits: Self.rateLimitCodes)
    }
}

/// WeCom's two message types: markdown (up to 4096 bytes) or text (up to 2048 bytes, can @ people).
package enum WeComMessageType: String, Codable, CaseIterable, Sendable {
    case markdown
    case text
}
