import UAAuditAudit

/// Reads a threshold given by `--threshold` or a config's `threshold`, shared by scan, run and merge.
enum ThresholdOption {
    /// `name` says where the text came from in messages (`--threshold`, `config threshold`).
    /// A share above 5% written without `%` is refused with both of its readings: `0.1`
    /// silently meaning 10% would hide nearly every alert.
    static func parse(_ text: String, name: String) throws(CLIError) -> Threshold {
        guard let parsed = Threshold(parsing: text) else {
            throw CLIError(
                "\(name) takes a share from 0 to 1 such as 0.001, or a percentage such as 0.1%, not '\(text)'")
        }
        if let readings = Threshold.ambiguity(of: text) {
            throw CLIError("\(name) \(text) is ambiguous: \(readings)")
        }
        return parsed
    }
}
