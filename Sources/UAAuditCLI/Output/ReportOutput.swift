import UAAuditInput
import UAAuditReport

/// Writes a report's JSON an hour at a time (``ReportEncoding/write(_:to:)``): to a file,
/// atomically, or to stdout. Nothing holds the whole encoded report.
enum ReportOutput {
    /// Writes `report` to `path`; nil when done, else the exit status, having said why (the
    /// previous file is then untouched). `untouched` ends the message for a write failure.
    static func write(_ report: Report, to path: String, console: Console, untouched: String) -> ExitCode? {
        do {
            try ReportEncoding.write(report, toFile: path)
            return nil
        } catch {
            return failed(error, path: path, console: console, untouched: untouched)
        }
    }

    /// Says why the report could not be written to `path` (here, or by `run`'s transaction),
    /// and returns the exit status: an encoding failure is an internal error.
    static func failed(_ error: any Error, path: String, console: Console, untouched: String) -> ExitCode {
        switch error {
        case let failure as ReportEncoding.EncodingFailure:
            console.error("\(failure.description) (an internal error; please report it)")
            return .encoding
        case let error as SystemError:
            console.error("cannot write report \(path): \(error.description); \(untouched)")
            return .output
        default:
            console.error("cannot write report \(path): \(error); \(untouched)")
            return .output
        }
    }

    /// Prints `report` on stdout; nil when done, else ``ExitCode/encoding``.
    static func print(_ report: Report, console: Console) -> ExitCode? {
        do {
            try ReportEncoding.write(report) { console.out(bytes: $0) }
            return nil
        } catch {
            console.error("\(error) (an internal error; please report it)")
            return .encoding
        }
    }
}
