import Glibc
import UAAuditInput

/// A configured log and its rotated siblings, each opened once for this run.
///
/// The live log must be a readable regular file that is not gzip: anything else is an
/// ``InputError`` naming the path and the cause, and the log is left as the state has it.
/// A rotated sibling that vanishes while it is opened is left out (a file that is needed and
/// missing becomes a gap); one that is there but cannot be opened or read is an error for the
/// log, which is then not advanced. A file seen under two names while a rotation renames it is
/// kept once. Siblings are found beside the log's real path (through symbolic links).
struct LogSnapshot: Sendable {
    var log: LogFile
    /// Rotated files, oldest first (by modification time; gzip and logrotate keep it).
    var rotated: [LogFile]
    /// When the files were opened (nanoseconds since the epoch, the clock of their
    /// modification times); `Int64.min` when unknown, so that no file counts as settled.
    var takenAt: Int64
    /// Rotated files listed but gone before they were looked at or opened. Not 0 means a
    /// rotation was under way: a file the planner cannot find may be one of them
    /// (``LogPlan/changed``, and the log is listed again).
    var missed = 0
    /// The file the log's path names through a symbolic link (its real path), when it is one.
    var target: String? = nil
    /// Rotated candidates left unread (CONTRACTS: files, as root): symbolic links, other names
    /// that are no regular file (a FIFO), files neither the live log's owner nor root owns, and
    /// files of another compressor than gzip.
    var skipped: [SkippedCandidate] = []

    init(log: LogFile, rotated: [LogFile], takenAt: Int64 = Int64.min) {
        self.log = log
        self.rotated = rotated
        self.takenAt = takenAt
    }

    /// The paths a run looks at besides the log's rotated siblings: the file the log's symbolic
    /// link named when it was last read, and the rotated files it still follows (a re-pointed
    /// link leaves the old target under its own name, which is no sibling's).
    static func previousPaths(_ saved: RunState.LogState?) -> [String] {
        guard let saved else { return [] }
        return ([saved.current?.target].compactMap { $0 } + saved.draining.map(\.path))
    }

    /// The most rotated siblings opened (the newest).
    static let maxRotated = 64

    /// Opens `logPath`, then its rotated siblings and those of `previous` (``previousPaths(_:)``)
    /// that are there; and when the log is a symbolic link re-pointed since it named
    /// `previousTarget` (last seen modified at `previousModified`), the files it named in between
    /// (``RotationCandidates/betweenTargets(after:before:since:)``:
    /// cronolog re-points it daily, and two runs may be days apart). Those are read whole as new
    /// files; one that cannot be opened is skipped and named (a gap), not an error for the log.
    /// With `rotatedDirectory` (logrotate's `olddir`: absolute, or relative to the log's
    /// directory), rotated names are looked for there too, under the same rules; a directory
    /// not there yet (logrotate's `createolddir` makes it at the first rotation) holds none.
    static func open(
        logPath: String, previous: [String] = [], previousTarget: String? = nil, previousModified: Int64? = nil,
        rotatedDirectory: String? = nil
    ) throws(InputError) -> LogSnapshot {
        let takenAt = Syscalls.wallClockNanoseconds()
        if let refusal = LiveLogLink.refusal(logPath) { throw InputError(path: logPath, reason: refusal) }
        let status: FileStatus?
        do {
            status = try Syscalls.status(logPath)
        } catch {
            throw InputError(path: logPath, reason: "cannot stat: \(error.description)")
        }
        guard let status else {
            throw InputError(
                path: logPath, reason: "does not exist (not created yet, a mount missing, or moved away?)")
        }
        if status.isDirectory { throw InputError(path: logPath, reason: "is a directory, not a log file") }
        if status.isFIFO {
            throw InputError(
                path: logPath,
                reason: "is a FIFO (named pipe): run resumes log files by offset; read a pipe with `uaaudit scan`")
        }
        guard status.isRegular else { throw InputError(path: logPath, reason: "is not a regular file") }
        let log = try LogFile.open(path: logPath, compressed: false)
        if GzipSource<FileRangeSource>.isGzip(Array(log.prefix.prefix(2))) {
            throw InputError(
                path: logPath,
                reason:
                    "is gzip-compressed, not a live log: give run the live log (its rotated .gz files are read from beside it), or read this file with `uaaudit scan`"
            )
        }
        var seen: Set<[UInt64]> = [[log.status.device, log.status.inode]]
        var rotated: [LogFile] = []
        // Siblings are next to the file itself, not next to a symbolic link to it.
        let resolved = Syscalls.realPath(logPath) ?? logPath
        // The newest ones only: a run reads at most 16 new rotated files (older ones become
        // gaps), and holding a thousand open would fail with EMFILE under systemd's limit.
        var listing: (candidates: [RotationCandidates.Candidate], links: [RotationCandidates.Candidate], vanished: Int)
        do {
            listing = try RotationCandidates.listing(for: resolved)
        } catch {
            throw InputError(
                path: logPath,
                reason:
                    "cannot list its directory \(AtomicFile.parentDirectory(of: resolved)) for its rotated files: \(error.description); fix that and the next run reads on"
            )
        }
        if let rotatedDirectory, !rotatedDirectory.isEmpty {
            let logDirectory = AtomicFile.parentDirectory(of: resolved)
            let path = rotatedDirectory.hasPrefix("/") ? rotatedDirectory : logDirectory + "/" + rotatedDirectory
            if let refusal = LiveLogLink.directoryRefusal(path) {
                throw InputError(path: logPath, reason: "its rotated directory \(path) " + refusal)
            }
        }
        if let elsewhere = rotatedPath(resolved, in: rotatedDirectory) {
            do {
                let more = try RotationCandidates.listing(for: elsewhere)
                func oldestFirst(_ a: RotationCandidates.Candidate, _ b: RotationCandidates.Candidate) -> Bool {
                    (a.status.modified, a.path) < (b.status.modified, b.path)
                }
                listing = (
                    (listing.candidates + more.candidates).sorted(by: oldestFirst),
                    (listing.links + more.links).sorted(by: oldestFirst), listing.vanished + more.vanished
                )
            } catch  where error.errno == ENOENT {
                // Not made yet: logrotate's `createolddir` makes it at the first rotation.
            } catch {
                throw InputError(
                    path: logPath,
                    reason:
                        "cannot list its rotated directory \(AtomicFile.parentDirectory(of: elsewhere)) for its rotated files: \(error.description); fix that and the next run reads on"
                )
            }
        }
        var missed = listing.vanished
        var candidates = Array(listing.candidates.suffix(LogSnapshot.maxRotated))
        var skipped = listing.links.suffix(LogSnapshot.maxRotated).map {
            SkippedCandidate.unopened(path: $0.path, status: $0.status)
        }
        let listed = Set((listing.candidates + listing.links).map(\.path))
        // The old target of a re-pointed link and followed rotated files, by the names the state
        // has (a real path: no link then); one that is a link now is skipped as any other.
        for path in previous where path != resolved && !listed.contains(path) {
            guard let status = try? Syscalls.linkStatus(path) else { continue }
            if !status.isRegular {
                skipped.append(.unopened(path: path, status: status))
            } else {
                candidates.append(
                    RotationCandidates.Candidate(
                        path: path, status: status, compressed: CompressionFormat.isGzipName(path)))
            }
        }
        let isLink = Syscalls.fileKind(logPath, followingLinks: false) == .symbolicLink
        var between: Set<String> = []
        if isLink, let previousTarget, previousTarget != resolved,
            let found = try? RotationCandidates.betweenTargets(
                after: previousTarget, before: resolved, since: previousModified)
        {
            for candidate in found.ambiguous where !listed.contains(candidate.path) {
                skipped.append(.ambiguousDate(path: candidate.path, status: candidate.status))
            }
            let taken = Set(candidates.map(\.path))
            for link in found.links where !listed.contains(link.path) {
                skipped.append(.unopened(path: link.path, status: link.status))
            }
            for candidate in found.candidates where !listed.contains(candidate.path) && !taken.contains(candidate.path)
            {
                candidates.append(candidate)
                between.insert(candidate.path)
            }
        }
        for candidate in candidates {
            var opened: LogFile?
            var failure: InputError?
            // Twice: logrotate may rename the next file onto the name between the failed open
            // and the check that the name is there.
            // Never through a symbolic link (O_NOFOLLOW), and the owner is checked on the
            // descriptor: a name swapped for a link after it was listed gets no further.
            for _ in 0..<2 where opened == nil {
                do {
                    opened = try LogFile.open(
                        path: candidate.path, compressed: candidate.compressed, followingLinks: false,
                        detectingCompression: true)
                } catch {
                    failure = error
                }
            }
            guard let file = opened else {
                // Made a link, a FIFO or a directory since it was listed: named, never opened.
                if let status = try? Syscalls.linkStatus(candidate.path), !status.isRegular {
                    skipped.append(.unopened(path: candidate.path, status: status))
                    continue
                }
                // Gone since it was listed (its name no longer there: a rotation renamed or
                // deleted it): a rotation under way, which the planner may have to wait out.
                guard Syscalls.fileKind(candidate.path, followingLinks: false) != nil else {
                    missed += 1
                    continue
                }
                // A dangling link, or a name renamed onto twice; or first bytes unreadable (a .gz
                // logrotate is still writing, or a damaged one): left for later.
                if between.contains(candidate.path), let failure {
                    skipped.append(.unreadable(path: candidate.path, status: candidate.status, reason: failure.reason))
                    continue
                }
                guard let failure, let code = failure.openErrno, code != ENOENT else { continue }
                // Present but not openable (permissions, too many open files): the log is not
                // advanced, rather than its lines taken for lost. A regular file this user may not
                // read may be one logrotate has just made (compress: root, 0600, then its owner).
                throw InputError(
                    path: logPath,
                    reason: "its rotated file \(candidate.path) \(failure.reason); fix that and the next run reads on",
                    transient: mayBeRotating(candidate.path))
            }
            guard seen.insert([file.status.device, file.status.inode]).inserted else { continue }
            if file.status.owner != log.status.owner, file.status.owner != 0 {
                skipped.append(.otherOwner(file))
                continue
            }
            if file.sparse {
                skipped.append(
                    SkippedCandidate(
                        path: file.path, status: file.status, compressed: file.compressed, cause: .sparse, file: file))
                continue
            }
            if let format = file.otherCompression {
                skipped.append(.compressed(file, format))
                continue
            }
            rotated.append(file)
        }
        rotated.sort { ($0.status.modified, $0.path) < ($1.status.modified, $1.path) }
        var snapshot = LogSnapshot(log: log, rotated: rotated, takenAt: takenAt)
        snapshot.missed = missed
        snapshot.skipped = skipped
        if isLink { snapshot.target = resolved }
        return snapshot
    }

    /// Where `resolved` (a log's real path) would be rotated to in `directory` (absolute, or
    /// relative to the log's directory, as logrotate's `olddir`): the same name there. Nil
    /// without a directory, or when it is the log's own (already listed).
    static func rotatedPath(_ resolved: String, in directory: String?) -> String? {
        guard let directory, !directory.isEmpty else { return nil }
        let logDirectory = AtomicFile.parentDirectory(of: resolved)
        var path =
            directory.hasPrefix("/")
            ? directory : logDirectory == "/" ? "/" + directory : logDirectory + "/" + directory
        // Another user's link as the directory (or on its way) is not followed: its files are
        // not looked for there (the caller names it).
        if LiveLogLink.directoryRefusal(path) != nil { return nil }
        path = Syscalls.realPath(path) ?? path
        guard path != logDirectory else { return nil }
        return (path == "/" ? "" : path) + "/" + AtomicFile.baseName(of: resolved)
    }

    /// Whether `path` is as a rotation under way leaves a log for a moment: not there (renamed,
    /// the next one not created yet), or a regular file this user cannot read (created, its owner
    /// and mode not given yet). A failure to look is neither.
    static func mayBeRotating(_ path: String) -> Bool {
        do {
            guard let status = try Syscalls.status(path) else { return true }
            return status.isRegular && !Syscalls.isReadable(path)
        } catch {
            return false
        }
    }

    /// What the state keeps of these files for the next run (skipped ones too: they are
    /// named once, when they are new).
    var known: [RunState.KnownFile] {
        ([log] + rotated).map {
            RunState.KnownFile(identity: $0.identity, size: $0.status.size, modified: $0.status.modified)
        } + skipped.map(\.known)
    }
}
