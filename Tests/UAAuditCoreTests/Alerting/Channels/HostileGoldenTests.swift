import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Every channel's exact message for an hour whose UAs try every trick a chat knows
/// (backticks, markdown, `<@here>`, `<!channel>`, a newline, `_` and `*`, a link), with the
/// report's path and the `uaaudit explain` command, against golden files in Golden/hostile-*.
/// docs/alerts.md explains, per channel, what is escaped and why.
@Suite struct HostileGoldenTests {
    /// As nginx logs them (`\x0A` for a newline).
    static let hostileLogged = [
        "Evil`tick`SDK_v2 *star* __under__ com.apple.CFNetwork",
        "<@here> <!channel> @all com.apple.CFNetwork",
        #"two\x0Alines ~strike~ #tag |pipe| com.apple.CFNetwork"#,
        "[x](https://phish.example/a_b) &amp; com.apple.CFNetwork",
    ]

    static func notification() throws -> AlertNotification {
        var lines: [String] = []
        for i in 0..<120 {
            lines.append(
                LogLines.uaLog(time: "29/Nov/2026:17:\(String(i % 60).leftPad2):00 +0800", ua: LogLines.urlsession))
        }
        for (n, ua) in hostileLogged.enumerated() {
            for _ in 0...n { lines.append(LogLines.uaLog(time: "29/Nov/2026:17:30:00 +0800", ua: ua)) }
        }
        let report = try AlertFixtures.report(log: lines.joined(separator: "\n") + "\n")
        let links = AlertLinks(reportPath: "/var/lib/uaaudit/report_main.json", otherwise: [])
        guard let notification = AlertNotification(report: report, host: "web_1", links: links) else {
            throw AlertFixtures.FixtureError()
        }
        return notification
    }

    @Test(arguments: ChannelPayloadTests.channels.keys.sorted())
    func hostileAlertEqualsTheGoldenFile(name: String) throws {
        let channel = try AlertFixtures.channel(try #require(ChannelPayloadTests.channels[name]))
        let request = try channel.kind.format.request(for: try Self.notification(), to: channel, now: AlertFixtures.now)
        try ChannelPayloadTests.check("hostile-\(name)", ChannelPayloadTests.rendered(request))
        let body = String(decoding: request.body, as: UTF8.self)
        // The command is exact and copy-pasteable in every message and payload.
        #expect(body.contains("uaaudit explain 2026-11-29T17:00:00+08:00 /var/lib/uaaudit/report_main.json"), "\(name)")
        // The generic body is uaaudit's JSON for programs: UAs exact, as in the report.
        for forbidden in ["<@here>", "<!channel>", "\\n~strike"] where name != "generic" {
            #expect(!body.contains(forbidden), "\(name): \(forbidden)")
        }
    }

    /// A report path is a file name, so text from others: a backtick would end WeCom's or
    /// Slack's code span, `<at user_id="all">` mentions everyone in Feishu, a newline breaks
    /// the line. Each channel shows it as its table says (goldens `hostile-path-*.txt`).
    @Test(arguments: ChannelPayloadTests.channels.keys.sorted())
    func aHostileReportPathIsShownAsTheChannelAllows(name: String) throws {
        let report = try AlertFixtures.report()
        let links = AlertLinks(reportPath: "/tmp/r`x <at user_id=\"all\">all</at> *b*\nz.json", otherwise: [])
        let notification = try #require(AlertNotification(report: report, host: "web-1", links: links))
        let channel = try AlertFixtures.channel(try #require(ChannelPayloadTests.channels[name]))
        let request = try channel.kind.format.request(for: notification, to: channel, now: AlertFixtures.now)
        try ChannelPayloadTests.check("hostile-path-\(name)", ChannelPayloadTests.rendered(request))
        let body = String(decoding: request.body, as: UTF8.self)
        // A backtick is harmless in plain text (WeCom text, Feishu), not in a code span.
        let spans = ["wecom-markdown", "slack", "dingtalk", "dingtalk-signed", "alertmanager"]
        if name != "generic" {
            for forbidden in ["<at user_id", "\\nz.json"] + (spans.contains(name) ? ["r`x"] : []) {
                #expect(!body.contains(forbidden), "\(name): \(forbidden)")
            }
        }
    }

    @Test func aCommandIsQuotedForTheShellOnlyWhereNeeded() {
        let links = AlertLinks(
            reportPath: nil, otherwise: ["--log-format", "$remote_addr \"$http_user_agent\"", "/l/a b.log"])
        #expect(
            links.explainCommand(hour: "2026-11-29T17:00:00+08:00")
                == #"uaaudit explain 2026-11-29T17:00:00+08:00 --log-format '$remote_addr "$http_user_agent"' '/l/a b.log'"#
        )
        #expect(AlertLinks.shellQuoted("it's") == #"'it'\''s'"#)
        #expect(AlertLinks(reportPath: "/r.json", otherwise: ["x.log"]).explainArguments == ["/r.json"])
    }

    /// Alertmanager's `endsAt` is an hour after the later of the clock and the report's time
    /// (`run --now`), so an alert made for a `--now` ahead of the clock does not end at once.
    @Test func alertmanagerEndsAnHourAfterTheLaterOfClockAndNow() throws {
        var n = try Self.notification()
        n.generatedAt = "2026-11-29T15:00:00Z"  // two hours after AlertFixtures.now's 13:05
        let later = AlertmanagerFormat.alerts(for: n, now: AlertFixtures.now)
        #expect(later.map(\.endsAt) == ["2026-11-29T16:00:00Z"])
        #expect(later.map(\.startsAt) == ["2026-11-29T09:00:00Z"])
        n.generatedAt = "2026-11-29T10:00:00Z"
        #expect(AlertmanagerFormat.alerts(for: n, now: AlertFixtures.now).map(\.endsAt) == ["2026-11-29T14:05:00Z"])
    }
}
