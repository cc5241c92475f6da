/// The exit statuses of `uaaudit`, listed in every `--help`.
public enum ExitCode: Int32, Sendable {
    /// Done.
    case success = 0
    /// Done, and an hour is over the threshold (only with `--fail-on-alert`).
    case alert = 1
    /// A usage or configuration error: nothing was audited.
    case usage = 2
    /// An input could not be read; the others were still audited and reported.
    case input = 3
    /// An alert could not be delivered to every channel (the report was written first).
    case delivery = 4
    /// Another `uaaudit run` holds the state lock; nothing was touched.
    case locked = 5
    /// A file uaaudit writes (report, HTML page, metrics, run state or lock) could not be
    /// written: a full disk, a read-only mount, a missing directory. The previous file is untouched.
    case output = 6
    /// The report could not be encoded: an internal error, never an input problem.
    case encoding = 7
    /// An input does not match its log format: more than half of its lines (and at least
    /// 100) are malformed. The report is still written; stderr names a format that fits.
    case formatMismatch = 8

    /// What the status means, as `--help` lists it.
    var meaning: String {
        switch self {
        case .success: return "done"
        case .alert: return "done, and an hour is over the threshold (only with --fail-on-alert)"
        case .usage: return "usage or configuration error (nothing was audited)"
        case .input: return "an input could not be read (the others were still audited and reported)"
        case .delivery: return "an alert could not be delivered (the report was written first)"
        case .locked: return "another uaaudit run holds the lock (nothing was touched)"
        case .output: return "an output or state file could not be written (the old one is kept)"
        case .encoding: return "the report could not be encoded (an internal error; please report it)"
        case .formatMismatch:
            return "an input does not match its log format (over half its lines malformed)"
        }
    }

    static let all: [ExitCode] = [
        .success, .alert, .usage, .input, .delivery, .locked, .output, .encoding, .formatMismatch,
    ]

    /// Every status, for the top-level help.
    static let helpText = helpText(for: all)

    /// What the status means in full, as the man page lists it (the table of CONTRACTS.md).
    var detail: String {
        switch self {
        case .success: return "done"
        case .alert: return "done, and an hour is over the threshold (only with --fail-on-alert)"
        case .usage:
            return "usage or configuration error (bad option, bad value, unknown config key, bad rules, "
                + "output path that would overwrite an input, the state or another output; "
                + "a missing state file for state show)"
        case .input:
            return "an input could not be read (missing, a directory, a FIFO for run, unreadable, a read error; "
                + "the other inputs are still audited)"
        case .delivery: return "an alert could not be delivered to every channel (the report was written first)"
        case .locked: return "another run holds the lock"
        case .output: return "an output or state file could not be written"
        case .encoding: return "the report could not be encoded (an internal error; never an input problem)"
        case .formatMismatch:
            return "an input does not match its log format (more than half of its lines malformed, "
                + "with at least 100 lines)"
        }
    }

    /// The statuses one command can end with, for its `--help`.
    static func helpText(for codes: [ExitCode]) -> String {
        "Exit status:\n" + codes.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")
    }
}
