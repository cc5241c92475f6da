import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The exact request of every channel for the fixture's two breached hours, against golden
/// files (`UAAUDIT_UPDATE_GOLDEN=1` rewrites them; review the diff).
@Suite struct ChannelPayloadTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static let channels: [String: String] = [
        "wecom-markdown": #"{"url": "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY-0001"}"#,
        "wecom-text": #"""
        {"url": "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY-0001", "msgtype": "text",
         "mentioned_list": ["@all"], "mentioned_mobile_list": ["13800000000"]}
        """#,
        "dingtalk": #"{"url": "https://oapi.dingtalk.com/robot/send?access_token=TOKEN-0001"}"#,
        "dingtalk-signed":
            #"{"url": "https://oapi.dingtalk.com/robot/send?access_token=TOKEN-0001", "secret": "SEC000test"}"#,
        "feishu": #"{"url": "https://open.feishu.cn/open-apis/bot/v2/hook/HOOK-0001"}"#,
        "feishu-signed": #"{"url": "https://open.feishu.cn/open-apis/bot/v2/hook/HOOK-0001", "secret": "SEC000test"}"#,
        "slack": #"{"url": "https://hooks.slack.com/services/T000/B000/XXXX"}"#,
        "generic": #"{"kind": "generic", "url": "https://alerts.example.com/uaaudit"}"#,
        "alertmanager": #"{"kind": "alertmanager", "url": "http://127.0.0.1:9093/"}"#,
    ]

    /// `POST <url>`, a newline, the body exactly as sent, a newline.
    static func rendered(_ request: HTTPRequest) -> String {
        "POST \(request.url.absoluteString)\n" + String(decoding: request.body, as: UTF8.self) + "\n"
    }

    static func check(_ name: String, _ text: String) throws {
        let file = golden.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["UAAUDIT_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: file)
        }
        let expected = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(text == expected, "\(name)")
    }

    @Test(arguments: channels.keys.sorted())
    func alertPayloadEqualsTheGoldenFile(name: String) throws {
        let channel = try AlertFixtures.channel(try #require(Self.channels[name]))
        let request = try channel.kind.format.request(
            for: try AlertFixtures.notification(), to: channel, now: AlertFixtures.now)
        try Self.check(name, Self.rendered(request))
        #expect(request.headers == ["Content-Type": "application/json"])
        // Every body is one valid JSON value.
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(request.body)) }
    }

    @Test(arguments: ["wecom-markdown", "feishu-signed", "alertmanager"])
    func testMessagePayloadEqualsTheGoldenFile(name: String) throws {
        let channel = try AlertFixtures.channel(try #require(Self.channels[name]))
        let notification = AlertNotification.test(host: "web-1", generatedAt: AlertFixtures.generatedAt)
        let request = try channel.kind.format.request(for: notification, to: channel, now: AlertFixtures.now)
        try Self.check("test-\(name)", Self.rendered(request))
    }

    /// How each channel shows the malicious UA (docs/alerts.md has the table): in a code span
    /// where the channel has one, as plain text where it has no markup, with every markup
    /// character replaced where neither.
    static let maliciousShown: [String: String] = [
        "wecom-markdown":
            #"`**bold** ‹＠all› ‹font color=\"warning\"›x‹/font› [link](http://evil) \\x1B[31m\\x07\\x00 com.apple.CFNetwork`"#,
        "wecom-text": #"**bold** ‹＠all› ‹font color=\"warning\"›x‹/font› [link](http:∕∕evil) \\x1B[31m\\x07\\x00"#,
        "feishu": #"**bold** ‹＠all› ‹font color=\"warning\"›x‹/font› [link](http:∕∕evil) \\x1B[31m\\x07\\x00"#,
        "slack":
            #"`**bold** &lt;@all&gt; &lt;font color=\"warning\"&gt;x&lt;/font&gt; [link](http://evil) \\x1B[31m\\x07\\x00"#,
        "dingtalk": #"∗∗bold∗∗ ‹＠all› ‹font color=\"warning\"›x‹/font› ［link］(http:∕∕evil) \\x1B［31m"#,
        "alertmanager": #"∗∗bold∗∗ ‹＠all› ‹font color=\"warning\"›x‹/font› ［link］(http:∕∕evil) \\x1B［31m"#,
    ]

    @Test func theMaliciousUAReachesNoChannelAsMarkup() throws {
        let notification = try AlertFixtures.notification()
        #expect(notification.hours[0].top.map(\.ua).contains(AlertFixtures.maliciousReported))
        for name in Self.channels.keys.sorted() where name != "generic" {
            let channel = try AlertFixtures.channel(try #require(Self.channels[name]))
            let request = try channel.kind.format.request(for: notification, to: channel, now: AlertFixtures.now)
            let body = String(decoding: request.body, as: UTF8.self)
            let shown = try #require(Self.maliciousShown[name.replacingOccurrences(of: "-signed", with: "")])
            #expect(body.contains(shown), "\(name)")
            for forbidden in ["<@all>", "<font", "\\u001b", "\\u0007", "\\u0000"] {
                #expect(!body.contains(forbidden), "\(name): \(forbidden)")
            }
        }
    }

    /// A threshold finer than a thousandth of a percent: the summary shows it and the hour's
    /// share as finely as the other channels do, never "0%".
    @Test func alertmanagerShowsAFineThresholdAsGiven() throws {
        var notification = try AlertFixtures.notification()
        notification.threshold = Threshold(parsing: "0.000001")!
        let alerts = AlertmanagerFormat.alerts(for: notification, now: AlertFixtures.now)
        let summary = try #require(alerts.first?.annotations["summary"])
        #expect(summary.hasPrefix("inconsistent UAs at 1.3333% of requests on web-1 in the hour"))
        #expect(summary.hasSuffix("(threshold 0.0001%)"))
        let before = try #require(
            AlertmanagerFormat.alerts(for: try AlertFixtures.notification(), now: AlertFixtures.now).first?
                .annotations["summary"])
        #expect(before.hasPrefix("inconsistent UAs at 1.333% of requests on web-1 in the hour"))
        #expect(before.hasSuffix("(threshold 0.1%)"))
    }

    @Test func alertmanagerGetsOneAlertPerBreachedHour() throws {
        let alerts = AlertmanagerFormat.alerts(for: try AlertFixtures.notification(), now: AlertFixtures.now)
        #expect(alerts.map(\.labels["hour"]) == ["2026-11-29T17:00:00+08:00", "2026-11-29T20:00:00+08:00"])
        #expect(alerts.map(\.startsAt) == ["2026-11-29T09:00:00Z", "2026-11-29T12:00:00Z"])
        #expect(alerts.map(\.endsAt) == ["2026-11-29T14:05:00Z", "2026-11-29T14:05:00Z"])
        #expect(alerts.map(\.labels.count) == [6, 6])
        #expect(alerts.map(\.labels["kind"]) == ["share", "share"])
        // Each hour's own id: the same label in every message that repeats the hour.
        let notification = try AlertFixtures.notification()
        #expect(alerts.map(\.labels["alert_id"]) == notification.hours.map(\.id))
        #expect(alerts.map(\.annotations["id"]) == notification.hours.map(\.id))
        #expect(alerts.allSatisfy { $0.labels["alert_id"]?.count == 16 })
        #expect(alerts[0].labels["alertname"] == "UAAuditShareOverThreshold")
        #expect(alerts[0].labels["host"] == "web-1")
        #expect(alerts[0].labels["class"] == "inconsistent")
    }

    /// A drift-only hour is its own alert, `UAAuditUADrift`, whose summary says why (not a 0%
    /// share "over" the threshold); an hour with both says both.
    @Test func alertmanagerNamesADriftHourAndSaysWhy() throws {
        var report = try AlertFixtures.report()
        let drift = Report.DriftEntry(
            baselineHours: 3, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: ["urlsession fell from 58% to 0% of requests"])
        report.hours[0].alert = false
        report.hours[0].drift = drift
        let last = try #require(report.hours.lastIndex { $0.alert })
        report.hours[last].drift = drift
        let notification = try #require(AlertNotification(report: report, host: "web-1"))
        let alerts = AlertmanagerFormat.alerts(for: notification, now: AlertFixtures.now)
        #expect(alerts.map(\.labels["alertname"]) == ["UAAuditUADrift", "UAAuditShareOverThreshold"])
        #expect(alerts.map(\.labels["kind"]) == ["drift", "both"])
        #expect(
            alerts.first?.annotations["summary"]
                == "User-Agent drift on web-1 in the hour 2026-11-29 17:00+08:00: urlsession fell from 58% to 0% of requests"
        )
        #expect(
            alerts.last?.annotations["summary"]
                == "inconsistent UAs at 2.439% of requests on web-1 in the hour 2026-11-29 20:00+08:00 (threshold 0.1%); "
                + "User-Agent drift: urlsession fell from 58% to 0% of requests")
        #expect(
            alerts.first?.annotations["description"]?.hasSuffix(
                "; User-Agent drift: urlsession fell from 58% to 0% of requests") == true)
    }

    @Test(arguments: [
        ("http://am:9093", "http://am:9093/api/v2/alerts"), ("http://am:9093/", "http://am:9093/api/v2/alerts"),
        ("http://am/prefix/", "http://am/prefix/api/v2/alerts"),
        ("http://am/api/v2/alerts", "http://am/api/v2/alerts"),
    ])
    func alertmanagerPathIsAppendedOnce(base: String, url: String) throws {
        let channel = try AlertChannel(kind: .alertmanager, url: .literal(base)).resolve(environment: [:])
        #expect(try AlertmanagerFormat.endpoint(channel).absoluteString == url)
    }
}
