import UAAuditInput

/// Writes one of a command's output files (`--out`, `--html`, `--prom`) atomically, and says
/// on stderr when it could not.
enum OutputFile {
    /// Returns false, having said why, when the file could not be written; the previous file is then untouched.
    /// `-` is stdout (a resolved ``OutputGuard/Named/target``).
    static func write(_ bytes: [UInt8], to path: String, what: String, console: Console) -> Bool {
        if path == "-" {
            console.out(bytes: bytes)
            return true
        }
        do {
            try AtomicFile.write(bytes, to: path, mode: 0o644)
            return true
        } catch {
            console.error("cannot write \(what) \(path): \(error.description); the previous one is untouched")
            return false
        }
    }
}
