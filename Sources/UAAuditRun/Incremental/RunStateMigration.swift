import FoundationEssentials
import UAAuditInput

/// Reads a state of an older version into today's ``RunState``.
///
/// Version 1 kept alerts by message: `alerts_sent` (delivered, or recorded without any
/// channel configured) and `alerts_pending` (with the channels still to take each). Version 2
/// keeps them by hour (``AlertLedger``). Migrated:
/// - a sent alert with channels: its hours are delivered;
/// - a sent alert with no channel (a run without a webhook recorded it as alerted): its hours
///   still in the state are pending, so the next run with a channel sends them;
/// - a pending alert: its hours are pending to every channel configured now (version 1's
///   channel keys named URL spellings that no longer mean anything), with its attempts; its
///   last error is dropped (version 1 masked less of a URL than the contract asks).
/// Their ids are given by the next run (an empty id), which knows the host and the logs.
enum RunStateMigration {
    struct V1Alerts: Decodable {
        struct Sent: Decodable {
            var hours: [String]
            var sent_at: String
            var channels: [String]
        }
        struct Pending: Decodable {
            var hours: [String]
            var created_at: String
            var attempts: Int?
        }
        var alerts_sent: [Sent]?
        var alerts_pending: [Pending]?
    }

    static func decode(version: Int, _ json: JSONValue) throws -> RunState {
        guard version == 1 else {
            throw StateError(path: "", reason: "version \(version) is not one uaaudit ever wrote")
        }
        let old = try JSONValueDecoder.decode(V1Alerts.self, from: json)
        guard var object = json.object else {
            throw StateError(path: "", reason: "is not a state object")
        }
        object["alerts_sent"] = nil
        object["alerts_pending"] = nil
        object["alerts"] = .object(["hours": .object([:])])
        object["version"] = .number(String(RunState.currentVersion))
        var state = try JSONValueDecoder.decode(RunState.self, from: .object(object))
        func kinds(_ hour: String) -> [HourAlertID.Kind] {
            guard let h = state.hours[hour] else { return [.share] }
            var kinds: [HourAlertID.Kind] = []
            if h.counts.insight?.driftBreached == true { kinds.append(.drift) }
            if h.breached || kinds.isEmpty { kinds.append(.share) }
            return kinds
        }
        for sent in old.alerts_sent ?? [] {
            for hour in sent.hours {
                if sent.channels.isEmpty {
                    guard state.hours[hour] != nil else { continue }
                    state.alerts.hours[hour] = AlertLedger.Entry(
                        id: "", kinds: kinds(hour), status: .pending, recordedAt: sent.sent_at)
                } else {
                    state.alerts.hours[hour] = AlertLedger.Entry(
                        id: "", kinds: kinds(hour), status: .delivered, recordedAt: sent.sent_at,
                        deliveredAt: sent.sent_at)
                }
            }
        }
        for pending in old.alerts_pending ?? [] {
            for hour in pending.hours {
                state.alerts.hours[hour] = AlertLedger.Entry(
                    id: "", kinds: kinds(hour), status: .pending, recordedAt: pending.created_at,
                    failures: pending.attempts ?? 0)
            }
        }
        return state
    }
}
