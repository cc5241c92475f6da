import FoundationEssentials
import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// Prometheus Alertmanager: `POST <base>/api/v2/alerts`, one alert per breached hour, so a
/// fleet gets Alertmanager's grouping, silencing and routing.
///
/// Labels: `alertname` (`UAAuditShareOverThreshold` when the share is over the threshold,
/// `UAAuditUADrift` for an hour that alerts for a User-Agent drift only), `kind` (`share`,
/// `drift` or `both`), `host`, `class` (the alert class), `hour` (so each hour is its own
/// alert) and `alert_id` (the hour's ``HourAlertID``, the same in every message that repeats
/// the hour). The summary says why the hour alerts: its share against the threshold, or the
/// drift's reasons (also in `description`). Annotations: `summary`, `description`, `share`,
/// `threshold`, `requests`, `count`, `top_uas`, `id` (the hour's id too), and, when known,
/// `report` (the report's path) and `explain` (the `uaaudit explain` command of the hour).
/// `startsAt` is the start of the hour; `endsAt` is one hour after the later of the clock and
/// the report's time (`run --now`), so the alert fires now, also for a run whose `--now` is
/// ahead of the clock, and resolves by itself (uaaudit sends no resolve). A test message is
/// one `UAAuditTest` alert that ends after 5 minutes.
struct AlertmanagerFormat: ChannelFormat {
    static let alertName = "UAAuditShareOverThreshold"
    static let driftAlertName = "UAAuditUADrift"
    static let testAlertName = "UAAuditTest"
    static let apiPath = "/api/v2/alerts"
    static let firing: TimeInterval = 3600
    static let testFiring: TimeInterval = 300
    /// UAs listed in the `top_uas` annotation.
    static let topLimit = 5

    struct Alert: Encodable, Equatable {
        var labels: [String: String]
        var annotations: [String: String]
        var startsAt: String
        var endsAt: String
    }

    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest
    {
        let alerts = Self.alerts(for: notification, now: now)
        return HTTPRequest(url: try Self.endpoint(channel), body: try AlertJSON.encode(alerts))
    }

    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        AnswerReading.byStatus(response, channel: channel)
    }

    /// The base URL with `/api/v2/alerts` appended, unless it already ends so.
    static func endpoint(_ channel: ResolvedChannel) throws(DeliveryFailure) -> URL {
        guard var parts = URLComponents(url: channel.url, resolvingAgainstBaseURL: false) else {
            throw DeliveryFailure.configuration("cannot use \(channel.shownURL) as an Alertmanager address")
        }
        var path = parts.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        if !path.hasSuffix(apiPath) { path += apiPath }
        parts.percentEncodedPath = path
        guard let url = parts.url else {
            throw DeliveryFailure.configuration("cannot use \(channel.shownURL) as an Alertmanager address")
        }
        return url
    }

    static func alerts(for n: AlertNotification, now: Date) -> [Alert] {
        let host = UntrustedText.neutralise(n.host, limit: MessageComposer.hostLimit)
        if n.test {
            return [
                Alert(
                    labels: ["alertname": testAlertName, "host": n.host, "class": n.alertClass],
                    annotations: [
                        "summary": "uaaudit test alert from \(host); no action is needed",
                        "description": "Sent by uaaudit alert test at \(n.generatedAt) to check the channel.",
                        "id": n.id,
                    ],
                    startsAt: utc(now), endsAt: utc(now.addingTimeInterval(testFiring)))
            ]
        }
        let reportTime = InstantText.parse(n.generatedAt).map { Date(timeIntervalSince1970: Double($0)) }
        let ends = utc(max(now, reportTime ?? now).addingTimeInterval(firing))
        // Against the threshold (``ShareText/trimmed(_:against:)``), as the other channels.
        let threshold = ShareText.trimmed(n.threshold.value, against: n.threshold)
        return n.hours.map { hour in
            let count = hour.classes[n.alertClass] ?? 0
            let start = HourKey(iso8601: hour.hour).map { utc(Date(timeIntervalSince1970: Double($0.startInstant))) }
            let classes = n.classOrder.map { "\($0) \(hour.classes[$0] ?? 0)" }.joined(separator: ", ")
            let top = hour.top.prefix(topLimit).map {
                "\($0.count) × \(UntrustedText.neutralise($0.ua, limit: MessageComposer.uaLimit))"
            }
            let drift = hour.drift.flatMap { $0.alert ? $0.reasons : nil }?.map {
                UntrustedText.neutralise($0, limit: MessageComposer.uaLimit * 2)
            }
            let kind = hour.alert ? (drift == nil ? "share" : "both") : "drift"
            let share =
                "\(n.alertClass) UAs at \(ShareText.trimmed(hour.share, against: n.threshold)) of requests on \(host) "
                + "in the hour \(Report.shortHour(hour.hour)) (threshold \(threshold))"
            let driftText = drift.map { "User-Agent drift: " + $0.joined(separator: "; ") }
            let summary: String
            switch kind {
            case "drift":
                summary =
                    "User-Agent drift on \(host) in the hour \(Report.shortHour(hour.hour)): "
                    + (drift ?? []).joined(separator: "; ")
            case "both": summary = share + "; " + (driftText ?? "")
            default: summary = share
            }
            var annotations = [
                "summary": summary,
                "description": "\(count) of \(hour.requests) requests; \(classes)"
                    + (driftText.map { "; " + $0 } ?? ""),
                "share": "\(hour.share)",
                "threshold": "\(n.threshold)",
                "requests": "\(hour.requests)",
                "count": "\(count)",
                "top_uas": top.joined(separator: "\n"),
                "id": hour.id ?? n.id,
            ]
            // Paths are file names: as DingTalk shows them, since templates forward annotations.
            if let report = n.report { annotations["report"] = MessageStyle.dingTalkMarkdown.code(report) }
            if let command = n.explain?[hour.hour] {
                let shown = MessageComposer(notification: n, style: .dingTalkMarkdown)
                    .shownCommand(command, hour: hour.hour, short: false)
                annotations["explain"] = MessageStyle.dingTalkMarkdown.code(shown)
            }
            return Alert(
                labels: [
                    "alertname": kind == "drift" ? driftAlertName : alertName, "kind": kind, "host": n.host,
                    "class": n.alertClass, "hour": hour.hour, "alert_id": hour.id ?? n.id,
                ],
                annotations: annotations,
                startsAt: start ?? utc(now), endsAt: ends)
        }
    }

    /// `2026-11-29T09:00:00Z`.
    static func utc(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
