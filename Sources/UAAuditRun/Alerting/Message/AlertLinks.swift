import FoundationEssentials
import UAAuditInput

/// Where a reader of an alert goes next: the report's path, and the `uaaudit explain` command
/// that shows an hour, with the arguments it needs (the report, or the logs and the options
/// that made the figures), quoted so that it can be pasted into a shell as it is.
package struct AlertLinks: Sendable, Equatable {
    /// The JSON report, when one was written to a file.
    var reportPath: String?
    /// What `uaaudit explain HOUR` needs after the hour: the report, or the scan's options and logs.
    var explainArguments: [String]

    init(reportPath: String? = nil, explainArguments: [String] = []) {
        self.reportPath = reportPath
        self.explainArguments = explainArguments
    }

    /// The report when there is one, else `arguments` (the options and logs of the scan).
    package init(reportPath: String?, otherwise arguments: [String]) {
        self.init(reportPath: reportPath, explainArguments: reportPath.map { [$0] } ?? arguments)
    }

    /// True when there is nothing to say (no report and nothing explain could read).
    var isEmpty: Bool { reportPath == nil && explainArguments.isEmpty }

    /// `uaaudit explain 2026-11-29T17:00:00+08:00 /var/lib/uaaudit/report.json`. When the
    /// figures came from standard input (`-`, and no report), it says that the same input must
    /// be piped to it: `(stdin: pipe the same input to) uaaudit explain … -`.
    func explainCommand(hour: String) -> String {
        let command = (["uaaudit", "explain", hour] + explainArguments).map(Self.shellQuoted).joined(separator: " ")
        return explainArguments.contains("-") ? Self.standardInputNote + command : command
    }

    static let standardInputNote = "(stdin: pipe the same input to) "

    /// A word as a POSIX shell reads it back (``ShellWord/quoted(_:)``).
    static func shellQuoted(_ word: String) -> String { ShellWord.quoted(word) }
}
