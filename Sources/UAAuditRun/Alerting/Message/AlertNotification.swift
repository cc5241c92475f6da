import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// What one alert says: the breached hours of one run on one host. One notification is sent
/// per run, whatever the number of hours, so a backlog does not burst past a robot's rate limit.
///
/// It is the body the `generic` channel posts (schema `uaaudit.alert/1`, keys sorted), and it
/// holds no secret, so the cron mode can keep an undelivered one in its state and send it later.
package struct AlertNotification: Codable, Equatable, Sendable {
    static let schemaID = "uaaudit.alert/1"

    var schema: String = AlertNotification.schemaID
    /// A stable hash of host, alert class and the hours' ids: the same message always has the
    /// same id. Each hour also carries its own id (`hours[].id`, ``HourAlertID``), the same in
    /// every message that repeats the hour: that is the one to drop copies by.
    package var id: String
    /// A test message (`uaaudit alert test`), not an alert.
    var test: Bool
    var host: String
    var alertClass: String
    /// All class names in rule order (the order in which messages list the counts).
    var classOrder: [String]
    var threshold: Threshold
    var minRequests: Int64
    /// The start of the first breached hour and the end of the last (`2026-11-29T18:00:00+08:00`).
    var from: String?
    var to: String?
    /// The breached hours, exactly as the report has them.
    var hours: [Report.HourEntry]
    /// When the report (or the test) was made.
    var generatedAt: String
    /// The JSON report's path, when one was written to a file.
    var report: String?
    /// Per hour, the `uaaudit explain` command that shows it, ready to paste (``AlertLinks``).
    var explain: [String: String]?

    enum CodingKeys: String, CodingKey {
        case schema, id, test, host, threshold, from, to, hours, report, explain
        case alertClass = "alert_class"
        case classOrder = "class_order"
        case minRequests = "min_requests"
        case generatedAt = "generated_at"
    }

    init(
        host: String, alertClass: String, classOrder: [String], threshold: Threshold, minRequests: Int64,
        hours: [Report.HourEntry], generatedAt: String, test: Bool = false
    ) {
        self.host = host
        self.alertClass = alertClass
        self.classOrder = classOrder
        self.threshold = threshold
        self.minRequests = minRequests
        self.hours = hours
        self.generatedAt = generatedAt
        self.test = test
        self.from = hours.first?.hour
        self.to = hours.last.flatMap { HourKey(iso8601: $0.hour) }.map {
            HourKey(localHour: $0.localHour + 1, offsetMinutes: $0.offsetMinutes).iso8601
        }
        self.id =
            test
            ? AlertNotification.id(of: ["test", host, generatedAt])
            : AlertNotification.alertID(host: host, alertClass: alertClass, hours: hours.map { $0.id ?? $0.hour })
    }

    /// The id of a message for these hours (their ids): the same whenever it is sent again.
    static func alertID(host: String, alertClass: String, hours: [String]) -> String {
        id(of: ["alert", host, alertClass] + hours)
    }

    private static func id(of parts: [String]) -> String {
        String(SHA256.hex(SHA256.hash(Array(parts.joined(separator: "\n").utf8))).prefix(16))
    }

    /// The notification for the report's breached hours (``Report/HourEntry/alert``: share
    /// strictly above the threshold with at least `min_requests` requests), or, with `hours`,
    /// for the report's hours of those names (an alert the cron mode kept); nil when none is.
    package init?(report: Report, host: String, hours: [String]? = nil, links: AlertLinks = AlertLinks()) {
        let chosen = hours.map { Set($0) }
        var selected = report.hours.filter { chosen?.contains($0.hour) ?? $0.alerted }
        if selected.isEmpty { return nil }
        // A scan's hours have no ledger: their ids come from the same parts as run's.
        let logs = report.sources.map(\.path)
        for i in selected.indices {
            // What merge needs (client ids, every family) is the report's, not a message's.
            selected[i].clients?.sample = nil
            selected[i].drift?.families = nil
            selected[i].drift?.familiesApproximate = nil
            selected[i].drift?.familiesDropped = nil
            selected[i].releases = nil
        }
        for i in selected.indices where selected[i].id == nil {
            selected[i].id = HourAlertID.make(
                host: host, logs: logs, hour: selected[i].hour, kinds: HourAlertID.kinds(of: selected[i]))
        }
        self.init(
            host: host, alertClass: report.rules.alertClass, classOrder: report.classNames,
            threshold: report.threshold, minRequests: report.minRequests, hours: selected,
            generatedAt: report.generatedAt)
        link(links)
    }

    /// Adds the report's path and each hour's `uaaudit explain` command.
    mutating func link(_ links: AlertLinks) {
        if links.isEmpty { return }
        report = links.reportPath
        explain = Dictionary(
            hours.map { ($0.hour, links.explainCommand(hour: $0.hour)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same alert with only `hours` (some of its own): one of several messages of a backlog.
    func with(hours: [Report.HourEntry]) -> AlertNotification {
        var part = AlertNotification(
            host: host, alertClass: alertClass, classOrder: classOrder, threshold: threshold,
            minRequests: minRequests, hours: hours, generatedAt: generatedAt, test: test)
        part.report = report
        part.explain = explain?.filter { hour, _ in hours.contains { $0.hour == hour } }
        return part
    }

    /// A clearly marked test message, with no hours.
    package static func test(host: String, generatedAt: String) -> AlertNotification {
        AlertNotification(
            host: host, alertClass: "inconsistent", classOrder: [], threshold: .zero, minRequests: 0, hours: [],
            generatedAt: generatedAt, test: true)
    }
}
