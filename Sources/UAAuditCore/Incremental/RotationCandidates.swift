/// Finds the files a log may have been rotated to: `access.log.1`, `.0`, `-YYYYMMDD[HH]`, and
/// their `.gz` variants, in the log's directory.
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

    /// `.1`, `.0`, `-20261129`, `-2026112917`, and logrotate `dateformat`s of digit groups
    /// (`-20261129-1764590000`, `-20261129_173000`), with an optional `.gz`.
    static func isRotationSuffix(_ suffix: Substring) -> Bool {
        var s = suffix
        if s.hasSuffix(".gz") { s = s.dropLast(3) }
        guard let first = s.first, first == "." || first == "-" else { return false }
        let rest = s.dropFirst()
        func isDigit(_ c: Character) -> Bool { c >= "0" && c <= "9" }
        if first == "." { return !rest.isEmpty && rest.count <= 10 && rest.allSatisfy(isDigit) }
        guard let head = rest.first, let tail = rest.last, isDigit(head), isDigit(tail),
            rest.allSatisfy({ isDigit($0) || $0 == "-" || $0 == "_" }), rest.filter(isDigit).count <= 24,
            !rest.contains("--"), !rest.contains("__"), !rest.contains("-_"), !rest.contains("_-")
        else { return false }
        // A date must lead: YYYYMMDD (then hours, minutes, seconds, or more groups), so that
        // another log named like `access.log-8080` is not taken for a rotation.
        let date = rest.prefix { isDigit($0) }
        guard [8, 10, 12, 14].contains(date.count), let year = Int(date.prefix(4)),
            let month = Int(date.dropFirst(4).prefix(2)), let day = Int(date.dropFirst(6).prefix(2)),
            (1970...2199).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return false }
        return true
    }
}
