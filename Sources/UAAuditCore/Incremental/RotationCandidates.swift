/// Finds the files a log may have been rotated to, in the log's directory: its name followed by
/// what logrotate appends (``RotationSuffix``: `.1`, `.0`, any `dateext` + `dateformat` name), and
/// their `.gz` variants.
package enum RotationCandidates {
    package struct Candidate: Sendable, Equatable {
        package var path: String
        package var status: FileStatus
        package var compressed: Bool
    }

    /// The rotated siblings of `logPath`, oldest first (by modification time; gzip keeps it);
    /// none when its directory cannot be listed.
    package static func list(for logPath: String) -> [Candidate] { (try? listing(for: logPath))?.candidates ?? [] }

    /// ``list(for:)``, and how many names were listed but gone before they could be looked at
    /// (a rotation renaming or deleting files as the directory was read). A directory that
    /// cannot be listed (no read permission, too many open files) is an error: with no rotated
    /// file found, a rotated log would be taken for one cut in place.
    package static func listing(for logPath: String) throws(SystemError) -> (candidates: [Candidate], vanished: Int) {
        let directory = AtomicFile.parentDirectory(of: logPath)
        let base = AtomicFile.baseName(of: logPath)
        let names = try Syscalls.listDirectory(directory)
        var found: [Candidate] = []
        var vanished = 0
        for name in names where name != base && name.hasPrefix(base) {
            let suffix = name.dropFirst(base.count)
            guard isRotationSuffix(suffix) else { continue }
            let path = directory == "/" ? "/\(name)" : "\(directory)/\(name)"
            guard let status = try? Syscalls.status(path), status.isRegular else {
                // The name itself gone (not a dangling link or a directory, which stay so).
                if Syscalls.fileKind(path, followingLinks: false) == nil { vanished += 1 }
                continue
            }
            found.append(Candidate(path: path, status: status, compressed: name.hasSuffix(".gz")))
        }
        return (found.sorted { ($0.status.modified, $0.path) < ($1.status.modified, $1.path) }, vanished)
    }

    /// Whether `path` is, or once created would be, taken by ``list(for:)`` for a rotated
    /// `logPath` (the same directory, the log's name and a rotation suffix): `run` would read
    /// an output written there as the log's rotated lines.
    package static func isRotatedSibling(_ path: String, of logPath: String) -> Bool {
        let (file, log) = (PathIdentity.resolved(path), PathIdentity.resolved(logPath))
        guard AtomicFile.parentDirectory(of: file) == AtomicFile.parentDirectory(of: log) else { return false }
        let (name, base) = (AtomicFile.baseName(of: file), AtomicFile.baseName(of: log))
        return name != base && name.hasPrefix(base) && isRotationSuffix(name.dropFirst(base.count))
    }

    /// `.1`, `.0`, or a logrotate `dateext` name of any `dateformat` (`-20261129`, `-1764590000`,
    /// `-2026-11-29-1764590000`, `.2026-11-29_173000`), with an optional `.gz`: ``RotationSuffix``.
    static func isRotationSuffix(_ suffix: Substring) -> Bool { RotationSuffix.isRotation(suffix) }
}
