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

    /// A command or a path (which holds file names, so text from others) in a code span where
    /// the channel has one, shown as it is where the channel reads none of its characters
    /// there, so that it can be copied; a character the channel would read (a backtick ending
    /// the span, `<at user_id="all">` in Feishu, a newline) is replaced as in a UA
    /// (``UntrustedText/shown(_:limit:style:)``). DingTalk has no code span: every markup
    /// character is replaced but `_` (so that `report_main.json` can be pasted).
    func code(_ text: String) -> String {
        switch self {
        case .dingTalkMarkdown: return UntrustedText.neutralise(text, limit: Int.max, keep: ["_"])
        case .markdown, .slack, .plain: return UntrustedText.shown(text, limit: Int.max, style: self)
        }
    }

    /// Whether ``code(_:)`` shows `text` exactly as it is (Slack's `&amp;` `&lt;` `&gt;` are
    /// shown as the character), so that what a reader copies is `text`. A command that the
    /// channel would change (a look-alike, a broken `://`) must not be shown: it would look
    /// right and run differently.
    func showsAsIs(_ text: String) -> Bool {
        switch self {
        case .dingTalkMarkdown, .plain: return code(text) == text
        case .markdown: return code(text) == "`" + text + "`"
        case .slack: return code(text) == "`" + UntrustedText.slackEscaped(text) + "`"
        }
    }
}
