import Foundation
import Testing
import UAAuditCore

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
}
