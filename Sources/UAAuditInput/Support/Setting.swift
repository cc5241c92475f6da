/// A numeric setting, declared once: its flag, its key in `run`'s config, its range and its
/// default. The options that set it (the parser, every `--help`, the man page, the completions),
/// the check of a config's numbers and every default in the code all come from here, and no
/// default is written anywhere else (`OptionDeclarationsTests.noDefaultIsWrittenTwice` proves
/// it; ripgrep's `flags/defs.rs` is the model).
package struct Setting: Sendable {
    /// The long flag, without `--`.
    package let flag: String
    /// The config key (`min_requests`, `insight.baseline_hours`); nil when only a flag sets it.
    package let key: String?
    package let range: ClosedRange<Double>
    /// False for a number of seconds that may have a fraction (`lock_wait_seconds`).
    let whole: Bool
    /// The value when neither a flag nor the config gives one.
    package let defaultValue: Double

    /// The default as `--help` and the man page write it.
    package var defaultText: String { Self.text(defaultValue) }

    /// The default of a whole-number setting.
    package var defaultInt: Int { Int(defaultValue) }

    /// The message of the flag and of the key alike, after the name.
    package func rule(_ shown: String) -> String {
        let (low, high) = (Self.text(range.lowerBound), Self.text(range.upperBound))
        return whole
            ? "takes a whole number from \(low) to \(high), not '\(shown)'"
            : "takes seconds from \(low) to \(high), not '\(shown)'"
    }

    /// `value` when it is allowed; a whole setting's value must be whole as `written` (when
    /// given), not only once read as a Double (2.9999999999999999999 reads as 3).
    package func accepts(_ value: Double, written text: String? = nil) -> Bool {
        guard range.contains(value), value.isFinite else { return false }
        guard whole else { return true }
        guard let text else { return value.rounded() == value }
        return JSONNumber.wholeDigits(text).flatMap { Int64($0) } != nil
    }

    package static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Every numeric setting.
package enum Settings {
    package static let top = Setting(flag: "top", key: "top", range: 0...10_000, whole: true, defaultValue: 10)
    package static let minRequests = Setting(
        flag: "min-requests", key: "min_requests", range: 0...Double(Int32.max), whole: true, defaultValue: 100)
    package static let historyHours = Setting(
        flag: "history-hours", key: "history_hours", range: 1...Double(24 * 366), whole: true, defaultValue: 48)
    package static let graceSeconds = Setting(
        flag: "grace", key: "grace_seconds", range: 0...86_400, whole: true, defaultValue: 300)
    package static let lockWaitSeconds = Setting(
        flag: "lock-wait", key: "lock_wait_seconds", range: 0...3600, whole: false, defaultValue: 30)
    package static let baselineHours = Setting(
        flag: "baseline-hours", key: "insight.baseline_hours", range: 0...Double(24 * 366), whole: true,
        defaultValue: 24)
    package static let maxLineBytes = Setting(
        flag: "max-line-bytes", key: nil, range: 1024...Double(256 << 20), whole: true,
        defaultValue: Double(LineReader.defaultMaxLineBytes))
    package static let doctorLines = Setting(
        flag: "lines", key: nil, range: 1...10_000, whole: true, defaultValue: 20)
    package static let doctorSample = Setting(
        flag: "sample", key: nil, range: 0...100_000, whole: true, defaultValue: 5000)
    package static let webhookRetries = Setting(
        flag: "webhook-retries", key: nil, range: 0...10, whole: true, defaultValue: 2)
    /// Seconds per attempt: more than 0 (``DeliveryOptions``).
    package static let webhookTimeout = Setting(
        flag: "webhook-timeout", key: nil, range: 0...600, whole: false, defaultValue: 10)

    /// The settings a config may hold, in the order their keys are checked.
    package static let configurable = [top, minRequests, historyHours, graceSeconds, lockWaitSeconds, baselineHours]
    /// The settings only a flag sets.
    static let commandLineOnly = [maxLineBytes, doctorLines, doctorSample, webhookRetries, webhookTimeout]
}
