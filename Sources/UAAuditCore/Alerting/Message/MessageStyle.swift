import FoundationEssentials

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

    /// Text of uaaudit's own (a command, a path) in a code span where the channel has one,
    /// so that it is shown as it is and can be copied.
    func code(_ text: String) -> String {
        switch self {
        case .markdown: return "`\(text)`"
        case .slack:
            let escaped = text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
                .replacing(">", with: "&gt;")
            return "`\(escaped)`"
        case .plain, .dingTalkMarkdown: return text
        }
    }
}
