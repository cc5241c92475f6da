import Foundation

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Reports and notifications for the alert tests, built by scanning real log lines.
enum AlertFixtures {
    /// The hostile UA of the issue, as nginx logs it (`"` as `\x22`), with control bytes.
    static let maliciousLogged =
        #"**bold** <@all> <font color=\x22warning\x22>x</font> [link](http://evil) \x1B[31m\x07\x00 com.apple.CFNetwork"#
    /// The same UA as the report has it.
    static let maliciousReported =
        "**bold** <@all> <font color=\"warning\">x</font> [link](http://evil) \u{1B}[31m\u{7}\u{0} com.apple.CFNetwork"
    static let sdk2 = "YourSDK/2.0 com.apple.CFNetwork/1494.0.7"

    static let generatedAt = "2026-11-29T13:00:00Z"
    /// 2026-11-29T13:05:00Z: the moment payloads are made in the golden files.
    static let now = Date(timeIntervalSince1970: 1_795_957_500)

    /// Four hours: 17:00 breached (2 of 150, one the malicious UA), 18:00 healthy (0 of 200),
    /// 19:00 under min_requests (10 of 50), 20:00 breached (3 of 123).
    static func log() -> String {
        var lines: [String] = []
        func add(_ n: Int, _ hour: Int, _ ua: String) {
            for i in 0..<n {
                lines.append(LogLines.uaLog(time: "29/Nov/2026:\(hour):\(String(i % 60).leftPad2):00 +0800", ua: ua))
            }
        }
        add(148, 17, LogLines.urlsession)
        add(1, 17, LogLines.cfnetwork)
        add(1, 17, maliciousLogged)
        add(200, 18, LogLines.urlsession)
        add(40, 19, LogLines.urlsession)
        add(10, 19, LogLines.cfnetwork)
        add(120, 20, LogLines.urlsession)
        add(3, 20, sdk2)
        return lines.joined(separator: "\n") + "\n"
    }

    static func report(log text: String = log(), top: Int = 10) throws -> Report {
        let dir = try TempDirectory()
        let path = try dir.write("access.log", Array(text.utf8))
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), top: top, threads: 1)
        var report = ReportBuilder.build(
            Scanner(configuration: configuration).scan([path]), configuration: configuration, generatedAt: generatedAt)
        // The hour ids hash the inputs' paths: the same path every time, for the golden files.
        for i in report.sources.indices { report.sources[i].path = "/var/log/nginx/access.log" }
        return report
    }

    static func notification() throws -> AlertNotification {
        guard let notification = AlertNotification(report: try report(), host: "web-1") else {
            throw FixtureError()
        }
        return notification
    }

    /// One hour over the threshold whose top list holds `count` distinct UAs of 300 characters.
    static func longUANotification(count: Int) throws -> AlertNotification {
        var lines: [String] = []
        for i in 0..<count {
            let ua = "LongSDK/\(i) com.apple.CFNetwork " + String(repeating: "x\(i % 10)", count: 140)
            lines.append(LogLines.uaLog(time: "29/Nov/2026:17:00:00 +0800", ua: ua))
        }
        for _ in 0..<100 { lines.append(LogLines.uaLog(time: "29/Nov/2026:17:00:01 +0800", ua: LogLines.urlsession)) }
        let report = try report(log: lines.joined(separator: "\n") + "\n", top: count)
        guard let notification = AlertNotification(report: report, host: "web-1") else { throw FixtureError() }
        return notification
    }

    /// A channel resolved from a JSON config object.
    static func channel(_ json: String, environment: [String: String] = [:]) throws -> ResolvedChannel {
        try JSONDecoder().decode(AlertChannel.self, from: Data(json.utf8)).resolve(environment: environment)
    }

    struct FixtureError: Error {}
}

extension AlertFixtures {
    /// `hours` breached hours from 2026-11-01 00:00 +0800, each with 100 ordinary requests and
    /// `uas` distinct alert-class UAs of its own (one request each).
    static func manyHoursNotification(hours: Int, uas: Int) throws -> AlertNotification {
        var lines: [String] = []
        for h in 0..<hours {
            let day = String(1 + h / 24).leftPad2
            let time = "\(day)/Nov/2026:\(String(h % 24).leftPad2):00:00 +0800"
            for _ in 0..<100 { lines.append(LogLines.uaLog(time: time, ua: LogLines.urlsession)) }
            for u in 0..<uas {
                lines.append(LogLines.uaLog(time: time, ua: "HourSDK/\(h).\(u) com.apple.CFNetwork/1494"))
            }
        }
        let report = try report(log: lines.joined(separator: "\n") + "\n", top: uas)
        guard let notification = AlertNotification(report: report, host: "web-1") else { throw FixtureError() }
        return notification
    }
}
