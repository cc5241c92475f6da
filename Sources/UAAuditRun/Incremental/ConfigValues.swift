import FoundationEssentials
import UAAuditAudit
import UAAuditInput

/// The check of a config's numbers against the ranges of their settings (``Settings``) (before decoding, so that `1.5` or `1e99` is named as a
/// value out of range, not as "not JSON", and `-1` never reaches the code that trusts it).
enum ConfigValues {
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
        for setting in Settings.configurable {
            // Only numbers: a value of another type is named by decoding.
            guard let key = setting.key, case .number(let text) = value(at: key), let number = Double(text) else {
                continue
            }
            if !setting.accepts(number, written: text) { return "\(key) \(setting.rule(text))" }
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
