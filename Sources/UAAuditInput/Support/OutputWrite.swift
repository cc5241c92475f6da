/// What became of one output file written whole (an HTML page, metrics, a rules file).
///
/// The core never prints: a path of `-` hands the bytes back for the caller to put on stdout.
package enum OutputWrite: Sendable, Equatable {
    case written
    /// The path was `-`: these bytes are for stdout.
    case standardOutput([UInt8])
    /// Not written; the previous file is untouched.
    case failed(SystemError)

    /// Writes `bytes` to `path` atomically (``AtomicFile``), or hands them back for `-`.
    package static func write(_ bytes: [UInt8], to path: String) -> OutputWrite {
        if path == "-" { return .standardOutput(bytes) }
        do {
            try AtomicFile.write(bytes, to: path, mode: 0o644)
            return .written
        } catch {
            return .failed(error)
        }
    }
}
