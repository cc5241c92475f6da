import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// SampleLogs/devices.log, written by a real nginx with a UA whitelist (make-devices.sh): the
/// figures its clients were made to produce, by device id and by address.
@Suite struct DevicesSampleTests {
    static let options = ["--nginx-conf", "nginx.conf", "--format", "ua_devices", "--min-requests", "10"]
    static let directory = Tool.repoRoot.appendingPathComponent("SampleLogs")

    static func report(_ extra: [String]) throws -> Report {
        let result = try Tool.run(["scan", "--json"] + options + extra + ["devices.log"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        return try ReportEncoding.decode(result.stdout)
    }

    @Test func splitClients403sAndTheUpdatedAppAreWhatTheClientsDid() throws {
        let byDevice = try Self.report(["--client-key", "http_x_device_id", "--alert-share-drop", "30%"])
        #expect(byDevice.hours.map(\.hour) == ["2026-11-28T09:00:00+00:00", "2026-11-28T10:00:00+00:00"])
        for hour in byDevice.hours {
            // 13 devices send the app's UAs (d01-d12, d14 never: it is a browser); d03 and d07 are split.
            let c = try #require(hour.clients)
            #expect((c.app, c.alert, c.split) == (12, 4, 2))
            // d03, d07: 2 SDK calls each; d13: 1 SDK call; d14: 2 browser requests (one on /api/).
            #expect(hour.classes["inconsistent"] == 7)
            #expect(hour.impact?["inconsistent"] == StatusCounts(s2xx: 1, s4xx: 6, s403: 6))
        }
        // Behind the NAT address, d12's app UAs and d13's SDK make one split address.
        let byAddress = try Self.report([])
        #expect(byAddress.hours.map { $0.clients?.split } == [3, 3])
        // From 10:00, d01-d06 run the update whose URLSession UA changed shape: 18 requests.
        let drift = try #require(byDevice.hours[1].drift)
        #expect(drift.newFamilies.map(\.family) == ["MyApp/#.#.# (iPhone; iPhone#,#; Scale/#.#; iOS #.#)"])
        #expect(drift.newFamilies.map(\.count) == [18])
        #expect(byDevice.hours[1].classes["urlsession"] == 18)
        #expect(byDevice.totals.driftAlertHours == ["2026-11-28T10:00:00+00:00"])
    }

    @Test func theSummaryAndTheAlertMessageAnswerTheSameThreeQuestions() throws {
        let flags = ["--client-key", "http_x_device_id", "--alert-share-drop", "30%"]
        let summary = try Tool.run(["scan"] + Self.options + flags + ["devices.log"], directory: Self.directory)
        #expect(summary.status == 0)
        #expect(summary.out.contains("inconsistent 14, of which 12 got 403 and 0 got 401\n"))
        #expect(summary.out.contains("most in 2026-11-28 09:00+00:00: 2 of 12 app clients (16.67%)\n"))
        #expect(summary.out.contains("  2026-11-28 10:00 other 18 (32.73%) MyApp/#.#.# (iPhone; iPhone#,#;"))
        #expect(
            summary.out.contains(
                "drift alert 2026-11-28 10:00+00:00:\n"
                    + "  urlsession share fell to 32.7% from 65.5% in the baseline (down 50%, over 30%)\n"))

        let receiver = try WebhookReceiver(routes: ["/wecom": [.json(#"{"errcode":0,"errmsg":"ok"}"#)]])
        let sent = try Tool.run(
            ["scan", "-q"] + Self.options + flags
                + ["--webhook", "\(receiver.baseURL)/wecom?key=K", "--webhook-kind", "wecom", "devices.log"],
            directory: Self.directory)
        #expect(sent.status == 0, "\(sent.stderr)")
        let requests = try receiver.requests()
        try #require(requests.count == 1)
        let payload = try JSONSerialization.jsonObject(with: Data(requests[0].body)) as? [String: Any]
        let text = try #require((payload?["markdown"] as? [String: Any])?["content"] as? String)
        #expect(text.contains("inconsistent 7, of which 6 got 403 and 0 got 401"))
        #expect(text.contains("split clients: 2 of 12 app clients (16.667%) by $http_x_device_id"))
        #expect(text.contains("paths: /api/v2/feed 4 (4 refused)"))
        #expect(
            text.contains("drift: urlsession share fell to 32.7% from 65.5% in the baseline (down 50%, over 30%)"))
    }
}
