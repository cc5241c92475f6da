import UAAuditInput

/// Finds the files a log may have been rotated to, in the log's directory: its name followed by
/// what logrotate appends (``RotationSuffix``: `.1`, `.0`, any `dateext` + `dateformat` name),
/// or with `extension` that before the log's own suffix (`access.1.log`), and their compressed
/// variants (`.gz`, or another `compressext`).
package enum RotationCandidates {
    struct Candidate: Sendable, Equatable {
        var path: String
        var status: FileStatus
        /// Named as gzip files are (``CompressionFormat/isGzipName(_:)``): opened as gzip. Any
        /// other is opened by its first bytes (gzip by another name, or another compressor's).
        var compressed: Bool
    }

    /// The rotated siblings of `logPath`, oldest first (by modification time; gzip keeps it);
    /// none when its directory cannot be listed.
    static func list(for logPath: String) -> [Candidate] { (try? listing(for: logPath))?.candidates ?? [] }

    /// ``list(for:)``; the symbolic links under a rotated name, which are never candidates (a
    /// user who may write the directory could point one at a file only root may read, and a
    /// run as root would copy its lines into the report: CONTRACTS, files as root), with the
    /// other names that are no regular file (a FIFO, a directory: never opened, named); and how
    /// many names were listed but gone before they could be looked at (a rotation renaming or
    /// deleting files as the directory was read). Names are looked at with lstat(2), so that a
    /// candidate's status is its own, not a link target's. A directory that cannot be listed
    /// (no read permission, too many open files) is an error: with no rotated file found, a
    /// rotated log would be taken for one cut in place.
    static func listing(for logPath: String) throws(SystemError) -> (
        candidates: [Candidate], links: [Candidate], vanished: Int
    ) {
        let directory = AtomicFile.parentDirectory(of: logPath)
        let base = AtomicFile.baseName(of: logPath)
        let names = try Syscalls.listDirectory(directory)
        var found: [Candidate] = []
        var links: [Candidate] = []
        var vanished = 0
        for name in names where RotationSuffix.isRotated(name, of: base) {
            let path = directory == "/" ? "/\(name)" : "\(directory)/\(name)"
            let status: FileStatus?
            do {
                status = try Syscalls.linkStatus(path)
            } catch {
                continue
            }
            // The name itself gone (a directory or a FIFO stays there, and is named).
            guard let status else {
                vanished += 1
                continue
            }
            let candidate = Candidate(path: path, status: status, compressed: CompressionFormat.isGzipName(name))
            if status.isRegular {
                found.append(candidate)
            } else {
                links.append(candidate)
            }
        }
        func oldestFirst(_ a: Candidate, _ b: Candidate) -> Bool {
            (a.status.modified, a.path) < (b.status.modified, b.path)
        }
        return (found.sorted(by: oldestFirst), links.sorted(by: oldestFirst), vanished)
    }

    /// The files a symbolic link to the live log pointed to after `old` and before `current`
    /// (both real paths): in `old`'s directory, the names of `old`'s shape (``NameShape``: the
    /// same text, other digits) ordered after it and before `current` (which must have that
    /// shape too: with no bound, a file dated ahead would be read now and again once the link
    /// names it), oldest name first, in date order (``NameShape/dateOrders(_:)``, from all
    /// those names: one with a day above 12 tells `%d-%m-%Y` from `%m-%d-%Y`). A file dated
    /// before `old`, or modified before `since` (the old target's last modification seen by
    /// the last run), was there at the last run and is never one. When day and month cannot be
    /// told apart, a file between in one reading only is `ambiguous` (the caller names it, not
    /// read). Looked at with lstat(2), as ``listing(for:)``: links and other names that are no
    /// regular file are returned apart.
    static func betweenTargets(after old: String, before current: String, since: Int64? = nil)
        throws(SystemError) -> (candidates: [Candidate], links: [Candidate], ambiguous: [Candidate])
    {
        let directory = AtomicFile.parentDirectory(of: old)
        guard old != current, let from = NameShape(AtomicFile.baseName(of: old)),
            let to = NameShape(AtomicFile.baseName(of: current)), from.isSameShape(as: to)
        else { return ([], [], []) }
        let alike = try Syscalls.listDirectory(directory).compactMap { name in
            NameShape(name).flatMap { $0.isSameShape(as: from) ? (name, $0) : nil }
        }
        // Names written with other widths (not of the same format) tell nothing of the order.
        let dated = alike.map(\.1).filter { $0.widths == from.widths }
        let orders = NameShape.dateOrders([from, to] + dated).filter { from.precedes(to, order: $0) }
        guard let first = orders.first else { return ([], [], []) }
        var named: [(shape: NameShape, candidate: Candidate, everyReading: Bool)] = []
        for (name, shape) in alike {
            let between = orders.filter { from.precedes(shape, order: $0) && shape.precedes(to, order: $0) }
            guard !between.isEmpty else { continue }
            let path = directory == "/" ? "/\(name)" : "\(directory)/\(name)"
            guard let status = try? Syscalls.linkStatus(path),
                !status.isRegular || since.map({ status.modified >= $0 }) ?? true
            else { continue }
            let candidate = Candidate(path: path, status: status, compressed: CompressionFormat.isGzipName(name))
            named.append((shape, candidate, between.count == orders.count))
        }
        let ordered = named.sorted { $0.shape.precedes($1.shape, order: first) }
        let read = ordered.filter(\.everyReading).map(\.candidate)
        return (
            read.filter(\.status.isRegular), read.filter { !$0.status.isRegular },
            ordered.filter { !$0.everyReading }.map(\.candidate)
        )
    }

    /// Whether `path` is, or once created would be, taken by ``list(for:)`` for a rotated
    /// `logPath` (the same directory, the log's name and a rotation suffix): `run` would read
    /// an output written there as the log's rotated lines.
    package static func isRotatedSibling(_ path: String, of logPath: String) -> Bool {
        let (file, log) = (PathIdentity.resolved(path), PathIdentity.resolved(logPath))
        guard AtomicFile.parentDirectory(of: file) == AtomicFile.parentDirectory(of: log) else { return false }
        let (name, base) = (AtomicFile.baseName(of: file), AtomicFile.baseName(of: log))
        return RotationSuffix.isRotated(name, of: base)
    }

    /// `.1`, `.0`, or a logrotate `dateext` name of any `dateformat` (`-20261129`, `-1764590000`,
    /// `-2026-11-29-1764590000`, `.2026-11-29_173000`), with an optional `.gz`: ``RotationSuffix``.
    static func isRotationSuffix(_ suffix: Substring) -> Bool { RotationSuffix.isRotation(suffix) }
}
