import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A generated day in which, from 15:00 on, the app's URLSession UA changes shape (`iOS 18_1`
/// becomes `iOS 18.1`): the rules stop matching it and `urlsession` traffic becomes `other`,
/// while `inconsistent` stays at zero. The new family must be reported in that hour with its
/// count, and the share-drop alert must fire once (scan and run alike).
@Suite struct DriftDayTests {
    static let changeHour = 15
    static let perHour = 400
    /// Old and new shape of the app's URLSession UA, with varying versions and models.
    static func urlsession(_ i: Int, changed: Bool) -> String {
        let model = ["iPhone15,3", "iPhone14,5", "iPhone16,1"][i % 3]
        let app = ["5.12.1", "5.12.2"][i % 2]
        let ios = ["18_1", "17_6", "18_2"][i % 3]
        return
            "MyApp/\(app) (iPhone; \(model); Scale/3.00; iOS \(changed ? ios.replacingOccurrences(of: "_", with: ".") : ios))"
    }

    static let webview =
        "MyApp/5.12.1 (iPhone; iPhone15,3; iOS 18_1) Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) "
        + "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1"

    /// Each hour: 58% URLSession, 30% WKWebView, 10% curl, 2% without UA.
    static func lines(hour: Int) -> [String] {
        (0..<perHour).map { i in
            let ua: String
            switch i % 50 {
            case 0..<29: ua = urlsession(i, changed: hour >= changeHour)
            case 29..<44: ua = webview
            case 44..<49: ua = "curl/8.\(i % 4).0"
            default: ua = "-"
            }
            let time = String(format: "29/Nov/2026:%02d:%02d:%02d +0000", hour, i % 60, i % 59)
            return "10.1.\(i % 200).\(hour) - - [\(time)] \"GET /api/v2/me HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.000"
        }
    }

    static let format =
        #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "#
        + #""$http_referer" "$http_user_agent" rt=$request_time"#
    static let newFamily = "MyApp/#.#.# (iPhone; iPhone#,#; Scale/#.#; iOS #.#)"
    static let changed = "2026-11-29T15:00:00+00:00"

    /// `--fail-on-alert` counts drift alerts in merge as it does in scan (one policy).
    @Test func mergeFailsOnADriftAlertAsScanDoes() throws {
        let dir = try Scratch()
        let log = try dir.write("day.log", (0..<24).flatMap { Self.lines(hour: $0) }.joined(separator: "\n") + "\n")
        let out = dir.path("day.json")
        let scan = try Tool.run([
            "scan", "-q", "--fail-on-alert", "--out", out, "--log-format", Self.format, "--alert-share-drop", "50%",
            log,
        ])
        #expect(scan.status == 1, "\(scan.stderr)")
        let merged = try Tool.run(["merge", "-q", "--fail-on-alert", out])
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(try Tool.run(["merge", "-q", out]).status == 0)
        // The summary counts the drift hour as an alert hour, as the HTML page and the messages do.
        let summary = try Tool.run(["merge", out]).out.split(separator: "\n").map(String.init)
        let line = try #require(
            summary.firstIndex(of: "alert hours: 1 of 24 (marked ! for the share: 0, d for drift: 1),"),
            "\(summary)")
        #expect(summary[line + 1] == "  where the inconsistent share is above 0.100% with at least 100 requests")
        #expect(summary.allSatisfy { $0.count <= 80 }, "\(summary)")
        #expect(summary.contains { $0.hasPrefix("2026-11-29 15:00+00:00") && $0.hasSuffix(" d") })
    }

    @Test func theNewFamilyIsReportedInItsHourAndTheShareDropAlertFiresOnce() throws {
        let dir = try Scratch()
        let log = try dir.write("day.log", (0..<24).flatMap { Self.lines(hour: $0) }.joined(separator: "\n") + "\n")
        let result = try Tool.run([
            "scan", "--json", "--log-format", Self.format, "--alert-share-drop", "50%", "--alert-new-family", "20%",
            log,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try ReportEncoding.decode(result.stdout)
        #expect(report.hours.count == 24)
        #expect(report.totals.driftAlertHours == [Self.changed])
        // 29 of every 50 requests are the app's URLSession: 232 an hour.
        for (h, hour) in report.hours.enumerated() {
            let drift = try #require(hour.drift)
            #expect(drift.baselineHours == min(h, 24))
            if h == Self.changeHour {
                #expect(
                    drift.newFamilies == [
                        Report.FamilyEntry(family: Self.newFamily, class: "other", count: 232, share: 0.58)
                    ])
                #expect(drift.newRequests == 232)
                #expect(drift.appShares[0] == Report.ShareChange(class: "urlsession", share: 0, baseline: 0.58))
                #expect(drift.alert)
                #expect(
                    drift.reasons == [
                        "new UA family \(Self.newFamily) (other) carries 58% of the hour, over 20%",
                        "urlsession share fell to 0% from 58% in the baseline (down 100%, over 50%)",
                    ])
            } else {
                #expect(drift.newFamilies.isEmpty, "\(hour.hour)")
                #expect(!drift.alert, "\(hour.hour)")
            }
        }
        #expect(report.hours[Self.changeHour + 1].classes["urlsession"] == 0)
        #expect(report.hours[Self.changeHour + 1].classes["other"] == 272)
        #expect(report.hours[Self.changeHour + 1].classes["inconsistent"] == 0)

        let explain = try Tool.run([
            "explain", "2026-11-29T15", "--log-format", Self.format, "--alert-share-drop", "0.5", log,
        ])
        #expect(explain.status == 0)
        #expect(explain.out.contains("     232 other        \(Self.newFamily)\n"))
        #expect(explain.out.contains("urlsession 0.000% (baseline 58.00%)"))
        #expect(explain.out.contains("drift alert: urlsession share fell to 0% from 58% in the baseline"))
    }

    @Test func theCronJobSendsTheDriftAlertOnceAsTheDayGoesBy() throws {
        let receiver = try WebhookReceiver(routes: ["/hook": [.init(status: 200)]])
        let h = try RunHarness()
        let hook = [
            "--log-format", Self.format, "--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic",
            "--alert-share-drop", "50%",
        ]
        for hour in 0..<24 {
            try h.appendRaw(Self.lines(hour: hour).joined(separator: "\n") + "\n", to: h.log)
            // Each run comes just after the hour's end plus the grace period: it closes that hour.
            let now = hour < 23 ? String(format: "2026-11-29T%02d:06:00Z", hour + 1) : "2026-11-30T00:06:00Z"
            let result = try h.run(now: now, extra: hook)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let requests = try receiver.requests()
        try #require(requests.count == 1)
        let body = try JSONDecoder().decode(AlertNotification.self, from: Data(requests[0].body))
        #expect(body.hours.map(\.hour) == [Self.changed])
        #expect(body.hours[0].drift?.alert == true)
        #expect(body.hours[0].alert == false)
        let report = try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: h.report))))
        #expect(report.totals.driftAlertHours == [Self.changed])
        let changed = try #require(report.hours.first { $0.hour == Self.changed })
        #expect(changed.drift?.newFamilies.map(\.count) == [232])
        #expect(changed.closed == true)
    }
}
