import UAAuditInput
import UAAuditReport

/// The id of one breached hour: a hash of the host, the set of logs, the hour and the alert
/// kind, so the same breach has the same id in every message and on every attempt, and a
/// receiver can drop a copy. `run` keeps it in its ledger from the moment the hour closes.
enum HourAlertID {
    /// Why an hour alerts.
    enum Kind: String, Codable, Sendable, Comparable, CaseIterable {
        /// The alert class's share over the threshold with enough requests.
        case share
        /// A UA drift (a new family, an app class's share drop).
        case drift

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// Characters of the id shown in chat messages.
    static let shortLength = 8

    /// 16 hex digits. `logs` are the configured logs (order and repeats do not matter).
    static func make(host: String, logs: [String], hour: String, kinds: [Kind]) -> String {
        let parts =
            ["hour-alert", host, Set(logs).sorted().joined(separator: "\u{0}"), hour]
            + Set(kinds).sorted().map(\.rawValue)
        return String(SHA256.hex(SHA256.hash(Array(parts.joined(separator: "\n").utf8))).prefix(16))
    }

    /// The kinds of a report hour: `share` when ``Report/HourEntry/alert``, `drift` when its drift alerts.
    static func kinds(of hour: Report.HourEntry) -> [Kind] {
        var kinds: [Kind] = []
        if hour.drift?.alert == true { kinds.append(.drift) }
        if hour.alert { kinds.append(.share) }
        return kinds
    }
}
