import FoundationEssentials

/// A channel ready to send to: its URL and secret read, its kind known, its options checked.
///
/// Its description and its mirror show the URL redacted, so it is safe to print or dump.
package struct ResolvedChannel: Sendable, CustomStringConvertible, CustomReflectable {
    let kind: ChannelKind
    let url: URL
    /// The URL as uaaudit shows it (``Redaction/url(_:)``).
    let shownURL: String
    let secret: String?
    /// Every secret value of this channel, to scrub from whatever text is shown.
    let secrets: [String]
    let msgtype: WeComMessageType
    let mentionedList: [String]
    let mentionedMobileList: [String]

    package var description: String { "\(kind.rawValue) \(shownURL)" }

    /// True when both post to the same URL (given twice, perhaps in two spellings of config):
    /// the robot would get every message twice. The URL itself stays inside.
    package func sendsToSameURL(as other: ResolvedChannel) -> Bool { url == other.url }

    /// `dump` and debuggers see the redacted URL only.
    package var customMirror: Mirror { Mirror(self, children: ["kind": kind, "url": shownURL]) }

    /// `text` without any of this channel's secrets.
    func scrub(_ text: String) -> String { Redaction.scrub(text, secrets: secrets) }

    /// The channel, with the secrets of `url` (a request's own URL) and `extra` (those its body
    /// carries) to scrub as well.
    func adding(secretsOf url: URL, extra: [String] = []) -> ResolvedChannel {
        ResolvedChannel(
            kind: kind, url: self.url, shownURL: shownURL, secret: secret,
            secrets: Array(
                Set(secrets + extra + Redaction.secrets(in: url.absoluteString, except: kind.publicURLParts))),
            msgtype: msgtype,
            mentionedList: mentionedList, mentionedMobileList: mentionedMobileList)
    }
}
