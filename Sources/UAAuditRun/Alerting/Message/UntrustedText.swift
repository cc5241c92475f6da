import FoundationEssentials
import UAAuditInput

/// Makes text that uaaudit does not control (UAs, host names) inert in a chat message.
///
/// A UA is whatever a client sends, so in a WeCom, DingTalk, Feishu or Slack message it could
/// bold, link, `<@mention>`, `@all` or recolour (`<font color=…>`). Here every character that
/// one of those formats interprets is replaced by a look-alike that none of them does (`*` by
/// `∗`, `<` by `‹`, `@` by `＠`, `[` by `［`…), `://` is broken (`:∕∕`) so no link is made,
/// control characters are shown as `\xHH` and invisible or bidirectional ones as `\u{…}`, and
/// the result is cut to a length. The report keeps the exact text; this is only for reading.
enum UntrustedText {
    static let lookAlikes: [Unicode.Scalar: String] = [
        "*": "\u{2217}", "_": "\u{FF3F}", "`": "\u{02CB}", "~": "\u{223C}", "[": "\u{FF3B}", "]": "\u{FF3D}",
        "<": "\u{2039}", ">": "\u{203A}", "@": "\u{FF20}", "#": "\u{FF03}", "|": "\u{FF5C}", "&": "\u{FF06}",
    ]

    /// `text` made inert, at most `limit` characters long (the last one `…` when cut).
    /// `keep`: characters shown as they are (the channel does not interpret them where the
    /// text goes); `breakLinks`: whether `://` is broken (where the channel makes links).
    static func neutralise(
        _ text: String, limit: Int, keep: Set<Unicode.Scalar> = [], breakLinks: Bool = true
    ) -> String {
        let scalars = Array(text.unicodeScalars)
        var pieces: [String] = []
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if keep.contains(scalar) {
                pieces.append(String(scalar))
                i += 1
                continue
            }
            if breakLinks, scalar == ":", i + 2 < scalars.count, scalars[i + 1] == "/", scalars[i + 2] == "/" {
                pieces.append(":\u{2215}\u{2215}")
                i += 3
                continue
            }
            pieces.append(piece(for: scalar))
            i += 1
        }
        var out = ""
        var length = 0
        for (index, piece) in pieces.enumerated() {
            let room = index == pieces.count - 1 ? limit : limit - 1
            if length + piece.count > room {
                out += "…"
                break
            }
            out += piece
            length += piece.count
        }
        return out
    }

    static func piece(for scalar: Unicode.Scalar) -> String {
        let v = scalar.value
        if v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v) {
            return "\\x" + ReportText.hex(UInt8(v))
        }
        if isInvisible(v) { return "\\u{" + String(v, radix: 16, uppercase: true) + "}" }
        return lookAlikes[scalar] ?? String(scalar)
    }

    /// Zero-width, bidirectional-control, line-separator and byte-order-mark characters.
    static func isInvisible(_ v: UInt32) -> Bool {
        (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v) || (0x2060...0x206F).contains(v)
            || v == 0xFEFF || v == 0x00AD || v == 0x061C
    }

    /// Slack's own escaping of `&`, `<` and `>`, which it shows as the characters.
    static func slackEscaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    /// A UA (or other text from the log) as `style` shows it: verbatim where the channel has a
    /// code span (WeCom markdown, Slack) or no markup (WeCom text, Feishu) for the characters
    /// it does not interpret there, so it can be pasted into `grep` or `uaaudit classify`;
    /// every other character as above. docs/alerts.md has the table.
    static func shown(_ text: String, limit: Int, style: MessageStyle) -> String {
        let markup: Set<Unicode.Scalar> = ["*", "_", "~", "[", "]", "#", "|"]
        switch style {
        case .markdown:
            // `<`, `>`, `@`, `&` keep their look-alikes: WeCom renders <font> and entities everywhere.
            return "`" + neutralise(text, limit: limit, keep: markup, breakLinks: false) + "`"
        case .slack:
            // Slack's own escaping, which it shows as the character: `<@U1>`, `<!here>` stay text.
            let kept = neutralise(text, limit: limit, keep: markup.union(["@", "<", ">", "&"]), breakLinks: false)
            return "`" + slackEscaped(kept) + "`"
        case .plain:
            // No markup; Feishu reads <at user_id="all"> in text, and clients make links.
            return neutralise(text, limit: limit, keep: markup.union(["`", "&"]))
        case .dingTalkMarkdown:
            // No code span in DingTalk's markdown: every markup character is replaced.
            return neutralise(text, limit: limit)
        }
    }
}
