import Glibc
import UAAuditInput

/// Where the CLI writes: stdout for results, stderr for messages. The only place that prints.
///
/// A closed stdout (`uaaudit … | head`) is noticed, and the run ends quietly. Any other
/// failed write to stdout (a full disk) also stops the output, and is kept in
/// ``stdoutFailure`` for the CLI to report and turn into an exit status.
final class Console {
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    private(set) var stdoutClosed = false
    /// The first error writing to stdout other than a closed pipe (EPIPE); nil when none.
    private(set) var stdoutFailure: SystemError?

    init() {
        signal(SIGPIPE, SIG_IGN)
        // A file over the size limit (`ulimit -f`) is a failed write with EFBIG, reported and
        // cleaned up like a full disk (exit 6), not a silent death by SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        stdoutIsTerminal = isatty(1) == 1
        stderrIsTerminal = isatty(2) == 1
    }

    func out(_ text: String) {
        guard !stdoutClosed else { return }
        write(Array(text.utf8), fd: 1)
    }

    func out(bytes: [UInt8]) {
        guard !stdoutClosed else { return }
        write(bytes, fd: 1)
    }

    /// A message to stderr, prefixed with `uaaudit:`. Messages quote files, rules and UAs
    /// written by others: control characters in them are shown escaped, never sent raw.
    func error(_ message: String) {
        write(Array("uaaudit: \(TerminalText.escapeKeepingLines(message))\n".utf8), fd: 2)
    }

    /// Information for the operator (not an error), to stderr; escaped like ``error(_:)``.
    func note(_ message: String) {
        write(Array("uaaudit: \(TerminalText.escapeKeepingLines(message))\n".utf8), fd: 2)
    }

    func err(raw text: String) {
        write(Array(text.utf8), fd: 2)
    }

    /// Raw bytes to stderr from any thread (the progress line); a failed write is ignored.
    static func writeStandardError(_ bytes: [UInt8]) {
        try? Syscalls.writeAll(2, bytes)
    }

    private func write(_ bytes: [UInt8], fd: Int32) {
        do throws(SystemError) {
            try Syscalls.writeAll(fd, bytes)
        } catch {
            guard fd == 1 else { return }
            stdoutClosed = true
            if error.errno != EPIPE, stdoutFailure == nil { stdoutFailure = error }
        }
    }
}
