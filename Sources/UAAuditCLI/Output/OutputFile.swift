import UAAuditInput

/// Writes one of a command's output files (`--out`, `--html`, `--prom`) atomically, and says
/// on stderr when it could not.
enum OutputFile {
    /// Returns false, having said why, when the file could not be written; the previous file is then untouched.
    /// `-` is stdout (a resolved ``OutputGuard/Named/target``).
    static func write(_ bytes: [UInt8], to path: String, what: String, console: Console) -> Bool {
        show(OutputWrite.write(bytes, to: path), path: path, what: what, console: console)
    }

    /// Says what became of a write to `path` (done in the core, which prints nothing): its
    /// bytes on stdout for `-`, or why it failed; false when it failed.
    static func show(_ result: OutputWrite, path: String, what: String, console: Console) -> Bool {
        switch result {
        case .written:
            return true
        case .standardOutput(let bytes):
            console.out(bytes: bytes)
            return true
        case .failed(let error):
            console.error("cannot write \(what) \(path): \(error.description); the previous one is untouched")
            return false
        }
    }
}
