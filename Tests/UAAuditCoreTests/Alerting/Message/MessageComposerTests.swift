import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct MessageComposerTests {
    @Test(arguments: [
        (0.001, "0.1%"), (2.0 / 150, "1.333%"), (1.0, "100%"), (0, "0%"), (0.000_004, "0%"), (0.000_005, "0.001%"),
        (0.125, "12.5%"),
    ])
    func percentagesHaveAtMostThreeDecimals(share: Double, text: String) {
        #expect(MessageComposer.percent(share) == text)
    }

    /// A threshold finer than a thousandth of a percent shows as given in the title, the
    /// summary and the hour's share: a page never says "over 0%".
    @Test func aFineThresholdShowsAsGiven() throws {
        var n = try AlertFixtures.notification()
        n.threshold = Threshold(parsing: "0.000001")!
        let composer = MessageComposer(notification: n, style: .plain)
        let host = n.host
        #expect(composer.title == "uaaudit: inconsistent UAs over 0.0001% on \(host)")
        let text = composer.fitted { _ in true }
        #expect(text.contains("with the inconsistent share above 0.0001% and at least"))
        let hour = try #require(n.hours.first { $0.alert })
        #expect(hour.share == 2.0 / 150)
        #expect(text.contains(": 1.3333% (2 of 150 requests)"))
        // The default threshold reads as before.
        let before = try AlertFixtures.notification()
        #expect(MessageComposer(notification: before, style: .plain).title.contains(" over 0.1% on "))
    }

    @Test func aTestMessageSaysItIsATest() {
        let n = AlertNotification.test(host: "<@all> web-1", generatedAt: "2026-11-29T13:00:00Z")
        let text = MessageComposer(notification: n, style: .plain).fitted { _ in true }
        #expect(
            text
                == """
                uaaudit test message from ‹＠all› web-1

                This is a test of the alert channel, sent by uaaudit alert test at 2026-11-29T13:00:00Z. No action is needed.

                id 19ac951b7f551438
                """.replacingOccurrences(of: "19ac951b7f551438", with: n.id))
    }

    /// Each channel's measure of its limit, as its format applies it.
    static let limits: [(kind: String, style: MessageStyle, limit: Int)] = [
        ("wecom-markdown", .markdown, WeComFormat.markdownLimit),
        ("wecom-text", .plain, WeComFormat.textLimit),
        ("dingtalk", .dingTalkMarkdown, DingTalkFormat.textLimit),
        ("slack", .slack, SlackFormat.textLimit),
    ]

    /// A hundred 300-character UAs in one hour: each channel keeps under its limit by showing
    /// fewer UAs (never by cutting the text), and one more UA would not have fitted.
    @Test(arguments: [("wecom-markdown", 24), ("wecom-text", 9), ("dingtalk", 100), ("slack", 23)])
    func aHundredLongUAsAreCutToTheLimit(kind: String, shown: Int) throws {
        let n = try AlertFixtures.longUANotification(count: 100)
        #expect(n.hours.count == 1 && n.hours[0].top.count == 100)
        let entry = try #require(Self.limits.first { $0.kind == kind })
        let composer = MessageComposer(notification: n, style: entry.style)
        let fits = { (text: String) in text.utf8.count <= entry.limit }
        let text = composer.fitted(fits)
        #expect(fits(text))
        #expect(text.hasSuffix("\n\nid \(n.id)"))
        // WeCom markdown and Slack show each UA in a code span.
        let listed = text.replacingOccurrences(of: " × `", with: " × ").components(separatedBy: " × LongSDK/").count - 1
        #expect(listed == shown)
        if shown < 100 {
            #expect(text.contains("(+\(100 - shown) more UAs not shown)"))
            #expect(!fits(composer.render(hours: 1, uas: composer.topUAs, uaCount: shown + 1)))
        }
        // Each UA is cut to 120 characters, ending in an ellipsis.
        let code = entry.style == .markdown || entry.style == .slack
        #expect(
            composer.topUAs.allSatisfy {
                code ? $0.ua.count == 122 && $0.ua.hasSuffix("…`") : $0.ua.count == 120 && $0.ua.hasSuffix("…")
            })
    }

    /// A chat payload's text, its size as its channel limits it (Feishu: the whole body), and
    /// the limit.
    static func sent(_ name: String, _ request: HTTPRequest) throws -> (text: String, size: Int, limit: Int) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let text: String
        switch name {
        case "wecom-markdown": text = try #require((json["markdown"] as? [String: Any])?["content"] as? String)
        case "wecom-text": text = try #require((json["text"] as? [String: Any])?["content"] as? String)
        case "dingtalk": text = try #require((json["markdown"] as? [String: Any])?["text"] as? String)
        case "feishu-signed": text = try #require((json["content"] as? [String: Any])?["text"] as? String)
        default: text = try #require(json["text"] as? String)
        }
        let limits = [
            "wecom-markdown": 4096, "wecom-text": 2048, "dingtalk": 20_000, "feishu-signed": 20_000, "slack": 4000,
        ]
        return (text, name == "feishu-signed" ? request.body.count : text.utf8.count, try #require(limits[name]))
    }

    /// The same through the formats, measured on what is sent (Feishu limits the whole body).
    @Test(arguments: ["wecom-markdown", "wecom-text", "dingtalk", "feishu-signed", "slack"])
    func payloadsStayUnderTheirLimitsWithFourHundredUAs(name: String) throws {
        let n = try AlertFixtures.longUANotification(count: 400)
        let channel = try AlertFixtures.channel(try #require(ChannelPayloadTests.channels[name]))
        let request = try channel.kind.format.request(for: n, to: channel, now: AlertFixtures.now)
        let (text, size, limit) = try Self.sent(name, request)
        #expect(size <= limit)
        #expect(size > limit - 300, "the list is cut only as far as needed: \(size)")
        #expect(text.contains(" more UAs not shown)"))
        #expect(text.hasSuffix("id \(n.id)"))
    }

    /// A scan of many logs with long paths and no report: one hour's explain command alone is
    /// over WeCom text's 2048 bytes (and, with 200 logs, every limit). The command then takes
    /// its short form, and no message is over its channel's limit.
    @Test(arguments: ["wecom-markdown", "wecom-text", "dingtalk", "feishu-signed", "slack"])
    func manyLongLogPathsNeverPutAMessageOverItsLimit(name: String) throws {
        let logs = (0..<200).map {
            "/srv/logs/" + String(repeating: "long-directory-name/", count: 7) + "access-\($0).log"
        }
        let links = AlertLinks(reportPath: nil, otherwise: ["--min-requests", "50"] + logs)
        let report = try AlertFixtures.report()
        let n = try #require(AlertNotification(report: report, host: "web-1", links: links))
        let channel = try AlertFixtures.channel(try #require(ChannelPayloadTests.channels[name]))
        let request = try channel.kind.format.request(for: n, to: channel, now: AlertFixtures.now)
        let (text, size, limit) = try Self.sent(name, request)
        #expect(size <= limit, "\(size)")
        #expect(
            text.contains("uaaudit explain 2026-11-29T17:00:00+08:00 with the logs and options that made this alert"),
            "\(text)")
        #expect(!text.contains("access-0.log"))
    }

    /// An explain command that a channel's escaping would change (DingTalk's `［` for `[` in a
    /// `--log-format`, WeCom markdown's `＆`) is never shown: it would look right and fail. The
    /// short form takes its place; a channel that shows it unchanged carries the exact command.
    @Test func anExplainCommandTheChannelWouldAlterIsNotShown() throws {
        let hour = "2026-11-29T17:00:00+08:00"
        let described = "uaaudit explain \(hour) with the logs and options that made this alert"
        func text(_ arguments: [String], report: String? = nil, _ style: MessageStyle) throws -> (String, String) {
            let links = AlertLinks(reportPath: report, otherwise: arguments)
            let n = try #require(AlertNotification(report: try AlertFixtures.report(), host: "web-1", links: links))
            let command = links.explainCommand(hour: hour)
            return (MessageComposer(notification: n, style: style).fitted { _ in true }, command)
        }
        let bracketed = ["--log-format", "$remote_addr - [$time_local] \"$request\"", "/var/log/d.log"]
        let (dingTalk, command) = try text(bracketed, .dingTalkMarkdown)
        #expect(command.contains("[$time_local]"))
        #expect(!dingTalk.contains("--log-format"), "\(dingTalk)")
        #expect(!dingTalk.contains("time_local"), "\(dingTalk)")
        #expect(dingTalk.contains("explain: " + described))
        #expect(try text(bracketed, .markdown).0.contains("explain: `" + command + "`"))
        #expect(try text(bracketed, .slack).0.contains("explain: `" + command + "`"))
        #expect(try text(bracketed, .plain).0.contains("explain: " + command))

        let shelly = ["/tmp/$(id) ;|&.log"]
        let (markdown, shellyCommand) = try text(shelly, .markdown)
        #expect(!markdown.contains("id) ;"), "\(markdown)")
        #expect(markdown.contains("explain: `" + described + "`"))
        #expect(try text(shelly, .dingTalkMarkdown).0.contains("explain: " + described))
        #expect(try text(shelly, .slack).0.contains("explain: `" + shellyCommand.replacing("&", with: "&amp;") + "`"))

        // A report whose path the channel shows unchanged stays the command; one it would alter does not.
        let (plainReport, _) = try text(bracketed, report: "/var/lib/uaaudit/report_main.json", .dingTalkMarkdown)
        #expect(plainReport.contains("explain: uaaudit explain \(hour) /var/lib/uaaudit/report_main.json"))
        let (oddReport, _) = try text(bracketed, report: "/var/lib/uaaudit/[main].json", .dingTalkMarkdown)
        #expect(oddReport.contains("explain: " + described), "\(oddReport)")
        let links = AlertLinks(reportPath: "/r/[main].json", otherwise: [])
        let n = try #require(AlertNotification(report: try AlertFixtures.report(), host: "web-1", links: links))
        #expect(MessageComposer(notification: n, style: .dingTalkMarkdown).shortCommand(hour: hour) == described)
        #expect(MessageComposer(notification: n, style: .slack).shortCommand(hour: hour).hasSuffix(" '/r/[main].json'"))
    }

    /// A drift-only hour (0% share) says why it alerts in every chat style: the title names
    /// the drift, and the hour carries the drift's reason.
    @Test(arguments: [MessageStyle.markdown, .plain, .dingTalkMarkdown, .slack])
    func aDriftOnlyHourSaysWhyItAlerts(style: MessageStyle) throws {
        var report = try AlertFixtures.report()
        for i in report.hours.indices { report.hours[i].alert = false }
        report.hours[0].drift = Report.DriftEntry(
            baselineHours: 3, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: ["urlsession fell from 58% to 0% of requests"])
        let n = try #require(AlertNotification(report: report, host: "web-1"))
        let text = MessageComposer(notification: n, style: style).fitted { _ in true }
        #expect(text.contains("uaaudit: User-Agent drift on web-1"))
        #expect(text.contains("1 hour with a User-Agent drift"))
        #expect(text.contains("drift: urlsession fell from 58% to 0% of requests"))
    }

    @Test func hoursAreCutAfterUAsAndOneAlwaysStays() throws {
        let n = try AlertFixtures.notification()
        let composer = MessageComposer(notification: n, style: .plain)
        let full = composer.fitted { _ in true }
        let noUAs = composer.render(hours: 2, uas: composer.topUAs, uaCount: 0)
        #expect(
            composer.fitted { $0.utf8.count < full.utf8.count }
                == composer.render(hours: 2, uas: composer.topUAs, uaCount: 2))
        #expect(composer.fitted { $0.utf8.count <= noUAs.utf8.count } == noUAs)
        let oneHour = composer.fitted { $0.utf8.count < noUAs.utf8.count }
        #expect(oneHour.contains("(+1 more hours not shown)"))
        #expect(oneHour.contains("(+3 more UAs not shown)"))
        #expect(!oneHour.contains("20:00+08:00:"))
        #expect(composer.fitted { _ in false } == oneHour)
    }
    /// Composing is about linear in the hours: 400 breached hours of 10 UAs each (4,000
    /// UAs) fit every channel in well under a second in a debug build, where trying each
    /// shorter message in turn took over a minute a channel. What is sent is the longest
    /// message under the limit, as before.
    @Test(arguments: [
        ("wecom-markdown", 12), ("wecom-text", 5), ("dingtalk", 66), ("feishu-signed", 67), ("slack", 12),
    ])
    func fourHundredBreachedHoursComposeQuickly(name: String, hours: Int) throws {
        let n = try AlertFixtures.manyHoursNotification(hours: 400, uas: 10)
        #expect(n.hours.count == 400 && n.hours.allSatisfy { $0.top.count == 10 })
        let channel = try AlertFixtures.channel(try #require(ChannelPayloadTests.channels[name]))
        let clock = ContinuousClock()
        var request: HTTPRequest?
        let took = try clock.measure {
            request = try channel.kind.format.request(for: n, to: channel, now: AlertFixtures.now)
        }
        print("\(name): 400 breached hours composed in \(took)")
        #expect(took < .seconds(1), "\(took)")
        let sent = try #require(request)
        let (text, size, limit) = try Self.sent(name, sent)
        #expect(size <= limit)
        #expect(sent.hoursCarried == hours)
        #expect(text.contains("(+\(400 - hours) more hours not shown)"))
        #expect(text.contains("(+4000 more UAs not shown)"))
    }
}
