import FoundationEssentials
import UAAuditAudit
import UAAuditInput

/// The ranges of the numeric options, shared by the flags and the config's keys, and the check
/// of a config's numbers against them (before decoding, so that `1.5` or `1e99` is named as a
/// value out of range, not as "not JSON", and `-1` never reaches the code that trusts it).
package enum ConfigValues {
    /// A numeric option: its flag, its config key (with the object it is in), its range.
    package struct Limit: Sendable {
        package let flag: String
        package let key: String
        package let range: ClosedRange<Double>
        /// False for a number of seconds that may have a fraction (`lock_wait_seconds`).
        let whole: Bool

        /// The message of the flag and of the key alike, after the name.
        package func rule(_ shown: String) -> String {
            let (low, high) = (Self.text(range.lowerBound), Self.text(range.upperBound))
            return whole
                ? "takes a whole number from \(low) to \(high), not '\(shown)'"
                : "takes seconds from \(low) to \(high), not '\(shown)'"
        }

        /// `value` when it is allowed.
        package func accepts(_ value: Double) -> Bool {
            range.contains(value) && (!whole || value.rounded() == value)
        }

        static func text(_ value: Double) -> String {
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    package static let top = Limit(flag: "top", key: "top", range: 0...10_000, whole: true)
    package static let minRequests = Limit(
        flag: "min-requests", key: "min_requests", range: 0...Double(Int32.max), whole: true)
    package static let historyHours = Limit(
        flag: "history-hours", key: "history_hours", range: 1...Double(24 * 366), whole: true)
    package static let graceSeconds = Limit(flag: "grace", key: "grace_seconds", range: 0...86_400, whole: true)
    package static let lockWaitSeconds = Limit(
        flag: "lock-wait", key: "lock_wait_seconds", range: 0...3600, whole: false)
    package static let baselineHours = Limit(
        flag: "baseline-hours", key: "insight.baseline_hours", range: 0...Double(24 * 366), whole: true)

    static let all = [top, minRequests, historyHours, graceSeconds, lockWaitSeconds, baselineHours]
    /// The keys that take a share (``Threshold``), a JSON number or a string.
    static let shareKeys = ["threshold", "insight.alert_new_family", "insight.alert_share_drop"]

    /// The first numeric key of a parsed config whose value is out of its range or not whole,
    /// as "KEY takes a whole number from A to B, not 'V'", or whose share is not one
    /// (``Threshold/rule``); nil when all are allowed (or it is no object: decoding says why).
    static func firstProblem(in json: JSONValue) -> String? {
        guard let object = json.object else { return nil }
        /// The value at a dotted key (`insight.baseline_hours`).
        func value(at key: String) -> JSONValue? {
            let parts = key.split(separator: ".").map(String.init)
            var container: [String: JSONValue]? = object
            for part in parts.dropLast() { container = container?[part]?.object }
            return container?[parts.last!]
        }
        for limit in all {
            // Only numbers: a value of another type is named by decoding.
            guard case .number(let text) = value(at: limit.key), let number = Double(text) else { continue }
            if !limit.accepts(number) || !number.isFinite { return "\(limit.key) \(limit.rule(text))" }
        }
        // The shares, as written: a number's digits are not all kept once decoded (`Decimal`
        // keeps 38), and one of more than 15 would read as another share.
        for key in shareKeys {
            guard case .number(let text) = value(at: key), Threshold(jsonNumber: text) == nil else { continue }
            let shown = text.count <= 40 ? text : String(text.prefix(20)) + "…"
            return "\(key) takes \(Threshold.rule), such as 0.001, or a percentage as a string such as "
                + "\"0.1%\", not '\(shown)'"
        }
        return nil
    }
}
