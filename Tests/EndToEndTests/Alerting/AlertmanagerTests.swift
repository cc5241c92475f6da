import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Debian's `prometheus-alertmanager`, started on a loopback port for the test: uaaudit pushes
/// its alerts, and the test reads them back from Alertmanager's own API.
@Suite struct AlertmanagerTests {
    static let required = ProcessInfo.processInfo.environment["UAAUDIT_REQUIRE_SERVERS"] == "1"

    static func binary() -> String? {
        ExternalTool.locate(.alertmanager)
    }

    /// A running Alertmanager with its own config and storage; stopped when the value goes away.
    final class Server {
        let port: Int
        let process: Process
        let dir: Scratch
        var base: String { "http://127.0.0.1:\(port)" }

        init(binary: String) throws {
            dir = try Scratch()
            let config = try dir.write(
                "alertmanager.yml",
                """
                route:
                  receiver: nowhere
                  group_wait: 1h
                receivers:
                  - name: nowhere
                """)
            port = try WebhookReceiver.refusingPort()
            process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [
                "--config.file=\(config)", "--storage.path=\(dir.path("data"))",
                "--web.listen-address=127.0.0.1:\(port)", "--cluster.listen-address=",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError =
                FileHandle(forWritingAtPath: dir.path("alertmanager.log"))
                ?? FileHandle.nullDevice
            try process.run()
            // Ready within a few seconds, or the test fails with Alertmanager's own log.
            for _ in 0..<100 {
                if (try? Self.get("\(base)/-/ready")) != nil { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            process.terminate()
            throw ServerError(message: "alertmanager did not become ready on port \(port)")
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }

        /// The alerts Alertmanager lists (`GET /api/v2/alerts`), as JSON objects.
        func alerts() throws -> [[String: Any]] {
            let data = try Self.get("\(base)/api/v2/alerts")
            return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        }

        /// A GET with curl (installed with the test dependencies), so the test does not share
        /// uaaudit's HTTP code.
        static func get(_ url: String) throws -> Data {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-sf", "--max-time", "2", url]
            let output = Pipe()
            curl.standardOutput = output
            curl.standardError = FileHandle.nullDevice
            try curl.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            guard curl.terminationStatus == 0 else { throw ServerError(message: "GET \(url) failed") }
            return data
        }
    }

    /// Two breached hours (17:00 and 18:00 +08:00) and a healthy one.
    static func log() -> String {
        var lines: [String] = []
        for hour in ["17", "18", "19"] {
            lines += (0..<148).map { _ in Lines.uaLog(time: "29/Nov/2026:\(hour):10:00 +0800", ua: Lines.urlsession) }
            if hour != "19" {
                lines += (0..<2).map { _ in Lines.uaLog(time: "29/Nov/2026:\(hour):20:00 +0800", ua: Lines.cfnetwork) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(.requires(.alertmanager)) func alertmanagerListsOneAlertPerBreachedHour() throws {
        guard let binary = Self.binary() else {
            let message =
                "PROMETHEUS-ALERTMANAGER IS NOT INSTALLED: the Alertmanager test is SKIPPED. Install it (scripts/install-deps.sh)."
            print("\n*** \(message) ***\n")
            if Self.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
            return
        }
        let server = try Server(binary: binary)
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.log())
        let result = try Tool.run([
            "scan", "-q", "--host", "web-1", "--webhook", server.base, "--webhook-kind", "alertmanager", log,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")

        let alerts = try server.alerts().filter {
            ($0["labels"] as? [String: String])?["alertname"] == "UAAuditShareOverThreshold"
        }
        var labels = alerts.compactMap { $0["labels"] as? [String: String] }.sorted { $0["hour"]! < $1["hour"]! }
        // Each hour's own id, 16 hex digits, also in the annotations.
        let ids = labels.map { $0["alert_id"] ?? "" }
        #expect(ids.allSatisfy { $0.count == 16 } && Set(ids).count == 2)
        for i in labels.indices { labels[i]["alert_id"] = nil }
        #expect(
            labels == [
                [
                    "alertname": "UAAuditShareOverThreshold", "kind": "share", "host": "web-1",
                    "class": "inconsistent", "hour": "2026-11-29T17:00:00+08:00",
                ],
                [
                    "alertname": "UAAuditShareOverThreshold", "kind": "share", "host": "web-1",
                    "class": "inconsistent", "hour": "2026-11-29T18:00:00+08:00",
                ],
            ])
        let byHour = Dictionary(
            uniqueKeysWithValues: alerts.map { (($0["labels"] as? [String: String])?["hour"] ?? "", $0) })
        let first = try #require(byHour["2026-11-29T17:00:00+08:00"])
        #expect(first["startsAt"] as? String == "2026-11-29T09:00:00.000Z")
        #expect((first["status"] as? [String: Any])?["state"] as? String == "active")
        let annotations = try #require(first["annotations"] as? [String: String])
        #expect(annotations["requests"] == "150")
        #expect(annotations["count"] == "2")
        #expect(annotations["threshold"] == "0.001")
        #expect(annotations["top_uas"] == "2 × YourSDK/1.0 com.apple.CFNetwork/1494.0.7")
        #expect(
            annotations["summary"]
                == "inconsistent UAs at 1.333% of requests on web-1 in the hour 2026-11-29 17:00+08:00 (threshold 0.1%)"
        )
        #expect(annotations["id"] == ids[0])
        // No report was written: the command scans the log again.
        #expect(annotations["explain"] == "uaaudit explain 2026-11-29T17:00:00+08:00 \(log)")
        #expect(annotations["report"] == nil)

        // alert test pushes one clearly marked test alert.
        let test = try Tool.run([
            "alert", "test", "--host", "web-1", "--webhook", server.base, "--webhook-kind", "alertmanager",
        ])
        #expect(test.status == 0)
        #expect(test.out == "delivered to alertmanager \(Redaction.url(server.base)) (1 attempt)\n")
        let testAlerts = try server.alerts().filter {
            ($0["labels"] as? [String: String])?["alertname"] == "UAAuditTest"
        }
        #expect(testAlerts.count == 1)
        #expect((testAlerts.first?["labels"] as? [String: String])?["host"] == "web-1")
    }

    struct ServerError: Error {
        let message: String
    }
}
