/// The markup of a channel's message text.
enum MessageStyle: Sendable {
    /// WeCom markdown.
    case markdown
    /// DingTalk markdown, where a single newline does not break a line.
    case dingTalkMarkdown
    /// Text with no markup (WeCom text, Feishu).
    case plain
    /// Slack's mrkdwn.
    case slack

    func bold(_ text: String) -> String {
        switch self {
        case .markdown, .dingTalkMarkdown: return "**\(text)**"
        case .slack: return "*\(text)*"
        case .plain: return text
        }
    }

    /// Between the lines of one paragraph.
    var lineBreak: String { self == .dingTalkMarkdown ? "  \n" : "\n" }

    var bullet: String {
        switch self {
        case .markdown, .dingTalkMarkdown: return "- "
        case .plain, .slack: return "• "
        }
    }
}
