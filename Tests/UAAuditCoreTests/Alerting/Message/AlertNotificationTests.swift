import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct AlertNotificationTests {
    @Test func coversExactlyTheBreachedHoursInOneNotification() throws {
        let report = try AlertFixtures.report()
        #expect(
            report.hours.map(\.hour).map { $0.prefix(13) } == [
                "2026-11-29T17", "2026-11-29T18", "2026-11-29T19", "2026-11-29T20",
            ])
        // 18:00 is healthy, 19:00 is over the share but under min_requests.
        #expect(report.hours.map(\.alert) == [true, false, false, true])
        let n = try #require(AlertNotification(report: report, host: "web-1"))
        #expect(n.hours.map(\.hour) == ["2026-11-29T17:00:00+08:00", "2026-11-29T20:00:00+08:00"])
        #expect(n.hours.map(\.requests) == [150, 123])
        #expect(n.hours.map { $0.classes["inconsistent"] } == [2, 3])
        #expect(n.from == "2026-11-29T17:00:00+08:00")
        #expect(n.to == "2026-11-29T21:00:00+08:00")
        #expect(n.id == "197bfb461459b711")
        // Each hour's own id: host, inputs, hour and kind.
        #expect(
            n.hours.map(\.id)
                == n.hours.map {
                    HourAlertID.make(host: "web-1", logs: ["/var/log/nginx/access.log"], hour: $0.hour, kinds: [.share])
                })
        #expect(n.hours.map(\.id) == ["225b41670208d6ca", "34bbdae500074c7b"])
        #expect(n.host == "web-1")
        #expect(n.alertClass == "inconsistent")
        #expect(n.classOrder == ["webview", "urlsession", "inconsistent", "other", "missing"])
        #expect(n.threshold == Threshold(parsing: "0.001")!)
        #expect(n.minRequests == 100)
        #expect(n.generatedAt == AlertFixtures.generatedAt)
        #expect(n.schema == "uaaudit.alert/1")
        #expect(!n.test)
    }

    @Test func healthyAndSparseHoursGiveNoNotification() throws {
        var lines = (0..<200).map { _ in LogLines.uaLog(ua: LogLines.urlsession) }
        lines += (0..<40).map { _ in LogLines.uaLog(time: "29/Nov/2026:19:00:00 +0800", ua: LogLines.urlsession) }
        lines += (0..<10).map { _ in LogLines.uaLog(time: "29/Nov/2026:19:00:00 +0800", ua: LogLines.cfnetwork) }
        let report = try AlertFixtures.report(log: lines.joined(separator: "\n") + "\n")
        #expect(report.hours.count == 2)
        #expect(report.hours[1].share == 0.2)
        #expect(AlertNotification(report: report, host: "web-1") == nil)
    }

    @Test func theIdDependsOnHostClassAndHoursOnly() throws {
        let a = try AlertFixtures.notification()
        var report = try AlertFixtures.report()
        report.generatedAt = "2030-01-01T00:00:00Z"
        report.hours[0].requests += 1
        #expect(AlertNotification(report: report, host: "web-1")?.id == a.id)
        #expect(AlertNotification(report: report, host: "web-2")?.id == "f3257d8b2588be02")
        report.hours[3].alert = false
        #expect(AlertNotification(report: report, host: "web-1")?.id != a.id)
    }

    @Test func aTestNotificationIsMarkedAndHasNoHours() {
        let n = AlertNotification.test(host: "web-1", generatedAt: "2026-11-29T13:00:00Z")
        #expect(n.test)
        #expect(n.hours.isEmpty)
        #expect(n.from == nil && n.to == nil)
        #expect(n.id == "19ac951b7f551438")
    }

    @Test func roundTripsThroughJSON() throws {
        let n = try AlertFixtures.notification()
        let bytes = try AlertJSON.encode(n)
        let decoded = try JSONDecoder().decode(AlertNotification.self, from: Data(bytes))
        #expect(decoded == n)
    }
}

extension AlertNotificationTests {
    @Test func chosenHoursOfAReportMakeTheNotificationACronRunKept() throws {
        let report = try AlertFixtures.report()
        let n = try #require(AlertNotification(report: report, host: "web-1", hours: ["2026-11-29T20:00:00+08:00"]))
        #expect(n.hours.map(\.hour) == ["2026-11-29T20:00:00+08:00"])
        #expect(n.from == "2026-11-29T20:00:00+08:00" && n.to == "2026-11-29T21:00:00+08:00")
        #expect(AlertNotification(report: report, host: "web-1", hours: ["2026-11-29T05:00:00+08:00"]) == nil)
        #expect(
            AlertNotification(
                report: report, host: "web-1",
                hours: [
                    "2026-11-29T17:00:00+08:00", "2026-11-29T20:00:00+08:00",
                ]) == AlertNotification(report: report, host: "web-1"))
    }
}
