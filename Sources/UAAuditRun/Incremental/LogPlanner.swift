import UAAuditInput
import UAAuditReport

/// One stretch of a file to read in this run, from the descriptor opened when it was planned.
struct ReadStep: Sendable, Equatable, CustomStringConvertible {
    var path: String
    var compressed: Bool
    /// Offset in the (decompressed) content to start at.
    var from: Int64
    /// Where to stop (after the last complete line); nil reads to the end of the content.
    var to: Int64?
    /// The file as opened for planning: the step is read from it, not from the path again.
    let file: LogFile

    init(file: LogFile, from: Int64, to: Int64?) {
        self.path = file.path
        self.compressed = file.compressed
        self.from = from
        self.to = to
        self.file = file
    }

    static func == (a: ReadStep, b: ReadStep) -> Bool {
        a.path == b.path && a.compressed == b.compressed && a.from == b.from && a.to == b.to
            && a.file === b.file
    }

    /// `access.log.1 120..3520`, `access.log.2.gz 0..end`: the planner tests' notation.
    var description: String {
        "\(AtomicFile.baseName(of: path)) \(from)..\(to.map(String.init) ?? "end")"
    }
}

/// What to read of one log in this run, what could not be read, and where reading will stand.
struct LogPlan: Sendable {
    var steps: [ReadStep] = []
    var gaps: [Report.Gap] = []
    var next = RunState.LogState()
    /// Files that could not be read while planning: the log must not be advanced this run.
    var errors: [InputError] = []
    /// Set when a file changed under the planner (truncated meanwhile): plan again.
    var changed: String? = nil
}

/// Decides, from the saved position and the files opened for this run, which bytes of a log
/// to read, and where reading will stand after them.
///
/// A file is taken for the one read before only on evidence that holds: its first bytes (a
/// fingerprint of fewer than 256 bytes proves nothing, see ``FileIdentity/isStrong``), and
/// for the live log its device and inode, and the hashes of what was read (``Checkpoints``).
///
/// - The live log is the same file, grown: read on from the offset.
/// - It is shorter, or the chunk before the offset changed, but its first chunks hash the
///   same: it was cut in place. The fingerprints of the last lines read find the line it was
///   cut at, and what follows is read; without them, the bytes between the last matching
///   chunk and the first line past the cut chunk are an `uncertain` gap (never counted twice).
/// - Otherwise (`mv` and reopen, `create`, `copytruncate`, a reused inode): the old file is
///   found among the rotated ones by its first bytes (decompressing `.gz`) and finished; then
///   every rotated file that is new since the last run (not a file the last run saw,
///   unchanged or copied) is read whole, oldest first, at most ``maxNewRotated``; then the
///   live log from its start. What cannot be found is a gap, never a silent skip.
///
/// Files are read up to their last complete line; a partial last line waits for the next run,
/// except at the end of a rotated file no write has touched for a minute (``Planning/isSettled(_:)``).
enum LogPlanner {
    /// Rotated files read whole in one run; older ones beyond it are gaps.
    static let maxNewRotated = 16
    /// Rotated files followed for lines nginx may still write to them.
    static let maxDraining = 16
    /// How long a rotated file's partial last line must stay untouched to be taken as torn.
    static let settleNanoseconds: Int64 = 60 * 1_000_000_000
    /// Files the state remembers as seen: this run's, and earlier ones it did not see again.
    static let maxKnown = 4 * LogSnapshot.maxRotated
    /// The most decompressed bytes of a rotated gzip file held to find where a log cut in
    /// place before it was rotated and compressed ends (``LogPlanner`` reads on past the cut).
    static let maxCutSearch: Int64 = 64 << 20

    /// The files the next run takes as seen (not new): every file of this snapshot, and the
    /// files seen before that this snapshot lacks (on no device and inode it holds), newest
    /// first, up to ``maxKnown`` in all.
    ///
    /// A snapshot taken while logrotate renames files can miss one: it was listed as `.52.gz`,
    /// renamed to `.53.gz` before it was opened, and is under neither name. Were it forgotten,
    /// the next run would take it for a new rotated file and count it again. A file deleted
    /// for good stays remembered until newer ones push it out.
    static func known(seen snapshot: LogSnapshot, before: [RunState.KnownFile]?) -> [RunState.KnownFile] {
        var known = snapshot.known
        let here = Set(
            (([snapshot.log] + snapshot.rotated).map(\.status) + snapshot.skipped.map(\.status)).map {
                [$0.device, $0.inode]
            })
        let unseen = (before ?? []).filter { !here.contains([$0.identity.device, $0.identity.inode]) }
        known += unseen.sorted { $0.modified > $1.modified }.prefix(max(0, maxKnown - known.count))
        return known
    }

    /// `clock` reads the times lines are stamped with: bytes alike prove a copy only when the
    /// lines they hold span two seconds (``LineClock``); nil takes bytes alike as proof.
    static func plan(
        logPath: String, saved: RunState.LogState?, snapshot: LogSnapshot, detectedAt: String,
        clock: LineClock? = nil
    ) -> LogPlan {
        var planning = Planning(logPath: logPath, snapshot: snapshot, detectedAt: detectedAt)
        planning.clock = clock
        do {
            try planning.run(saved)
        } catch {
            var failed = LogPlan()
            failed.errors = [error]
            return failed
        }
        return planning.plan
    }
}

private struct Planning {
    let logPath: String
    let snapshot: LogSnapshot
    let detectedAt: String
    var plan = LogPlan()
    var clock: LineClock? = nil
    var claimed: Set<ObjectIdentifier> = []
    /// Rotated files new since the last run in another compressor's format, which `run` cannot
    /// read: named in the gaps of lines not found, which they may hold.
    var unreadableCompressed: [String] = []

    /// What a gap for lines not found adds about ``unreadableCompressed``.
    var unreadableNote: String {
        guard !unreadableCompressed.isEmpty else { return "" }
        return
            "; \(unreadableCompressed.joined(separator: ", ")) may hold them: compressed with another compressor than gzip, which run does not read (keep delaycompress, so that the plain file is read before it is compressed)"
    }

    init(logPath: String, snapshot: LogSnapshot, detectedAt: String) {
        self.logPath = logPath
        self.snapshot = snapshot
        self.detectedAt = detectedAt
    }

    var log: LogFile { snapshot.log }

    func unclaimed() -> [LogFile] { snapshot.rotated.filter { !claimed.contains(ObjectIdentifier($0)) } }

    mutating func run(_ saved: RunState.LogState?) throws(InputError) {
        plan.next.known = LogPlanner.known(seen: snapshot, before: saved?.known)
        if let saved, let current = saved.current {
            for skipped in snapshot.skipped where isNew(skipped, known: saved.known, current: current) {
                switch skipped.cause {
                case .owner(let owner):
                    gap(
                        skipped.path, 0, skipped.compressed ? nil : skipped.status.size,
                        "not read as a rotated file of this log: it is owned by uid \(owner), neither the live log's owner (uid \(log.status.owner)) nor root"
                    )
                case .notRegular(let kind):
                    gap(
                        skipped.path, 0, nil,
                        "not read as a rotated file of this log: it is \(kind.rawValue), not a regular file, and only regular files are read as rotated ones"
                    )
                case .symbolicLink:
                    gap(
                        skipped.path, 0, nil,
                        "not read as a rotated file of this log: it is a symbolic link, and a rotated file is never read through one"
                    )
                case .unreadable(let reason):
                    gap(
                        skipped.path, 0, nil,
                        "the log's symbolic link named this file between two runs (it is named like the link's targets, between the last one read and the current one), and it \(reason): its lines are not read"
                    )
                case .ambiguousDate:
                    gap(
                        skipped.path, 0, nil,
                        "the log's symbolic link may have named this file between two runs: it is named like the link's targets, but whether it is dated between the last one read and the current one depends on which two-digit field is the day and which the month, and no file beside it has a day above 12 to tell; its lines are not read"
                    )
                case .sparse:
                    gap(
                        skipped.path, 0, skipped.status.size,
                        "not read as a rotated file of this log: it is mostly holes (a sparse file of \(skipped.status.size) bytes, such as truncate -s makes), which no log written by appending is, and reading its zeros would take the run minutes; remove it or move it away"
                    )
                case .compression(let format):
                    // Named only where lines are missing: with `delaycompress` its lines were read
                    // from the plain file before it was compressed.
                    unreadableCompressed.append("\(skipped.path) (\(format.rawValue))")
                }
            }
        }
        guard let saved, let current = saved.current else {
            // First run for this log: all of the live log, none of the older rotated files.
            try readCurrent(from: 0, checkpoints: [])
            return
        }
        for tracked in saved.draining { try drain(tracked) }
        try follow(current, known: saved.known)
        if plan.next.draining.count > LogPlanner.maxDraining {
            for dropped in plan.next.draining.prefix(plan.next.draining.count - LogPlanner.maxDraining)
            where dropped.size > dropped.offset {
                gap(
                    dropped.path, dropped.offset, dropped.size,
                    "more than \(LogPlanner.maxDraining) rotated files followed at once; the oldest is no longer read")
            }
            plan.next.draining.removeFirst(plan.next.draining.count - LogPlanner.maxDraining)
        }
    }

    /// A rotated file read before, which nginx may have written more lines to.
    mutating func drain(_ tracked: RunState.Tracked) throws(InputError) {
        guard let found = locate(tracked.identity, offset: tracked.offset, among: unclaimed()) else {
            if snapshot.missed > 0 {
                plan.changed = "\(tracked.path): not found while a rotation renamed files; listed again"
                return
            }
            if tracked.size > tracked.offset {
                gap(
                    tracked.path, tracked.offset, tracked.size,
                    "rotated file disappeared before it was read to its end\(unreadableNote)")
            }
            return
        }
        claimed.insert(ObjectIdentifier(found))
        try readRotated(found, from: tracked.offset)
    }

    mutating func follow(_ current: RunState.Tracked, known: [RunState.KnownFile]?) throws(InputError) {
        let id = current.identity
        let fresh = unclaimed().filter { isNew($0, known: known, current: current) }
        // A file born after the last modification seen of the one read is another file on the
        // number, freed and reused (gzip deleting `.1`, then a backup restored as the log), for
        // a strong identity too when checkpoints let its content decide, as for any other inode
        // (a state from before them keeps the number's word).
        let sameFile =
            log.status.device == id.device && log.status.inode == id.inode
            && ((log.born ?? Int64.min) <= current.modified || (id.isStrong && current.checkpoints == nil))
        if sameFile, log.startsLike(id), id.isStrong || fresh.isEmpty {
            try continueCurrent(current, fresh: fresh)
            return
        }
        if sameFile, id.isStrong, let checkpoints = current.checkpoints {
            // Its first bytes changed: cut in place below them, or another file on the inode?
            let kept = try Checkpoints.verifiedPrefix(checkpoints, file: log, size: log.status.size)
            if kept.end > 0 {
                try cutInPlace(current, checkpoints: checkpoints, kept: kept)
                return
            }
            // Cut inside its first chunk: it still starts with the first line read, and no
            // rotated file holds what was read (then it was copied and truncated, and written on).
            if let first = checkpoints.first?.firstLine,
                try Checkpoints.firstLine(of: log, from: 0, to: checkpoints[0].end) == first,
                locate(id, offset: current.offset, among: unclaimed()) == nil, snapshot.missed == 0
            {
                try cutInPlace(current, checkpoints: checkpoints, kept: kept)
                return
            }
        }
        let old =
            id.isStrong
            ? locate(id, offset: current.offset, among: unclaimed()) ?? cutAndRotated(current)
                ?? cutThenMoved(current, known: known)
            : locateWeak(current, fresh)
        if !sameFile, let old, id.isStrong, let checkpoints = current.checkpoints, log.startsLike(id) {
            // The old file is under a rotated name and the live log is another inode that starts
            // as it did (`cp -p` + `mv`, an editor's save keeping a backup named `.1`): a copy of
            // the log, not a new generation of it, when it holds all that was read; the old
            // file's tail is read too, but the bytes the two hold alike only once.
            let kept = try Checkpoints.verifiedPrefix(checkpoints, file: log, size: log.status.size)
            // (One that matches only some first chunks may be a new generation that starts
            // alike, the same probe lines first: a rotation, as below. So may one that holds
            // all that was read when that was written in one second: a burst repeated.)
            if kept.end == current.offset, kept.count == checkpoints.count,
                try SharedContent.provesCopy(log, upTo: current.offset, clock: clock)
            {
                try copiedAside(current, old: old, checkpoints: checkpoints)
                return
            }
        }
        if !sameFile, old == nil, id.isStrong, let checkpoints = current.checkpoints {
            // The old file is under no name, nor a copy of it: the log was replaced by another
            // inode (a restore, rsync, cp + mv, an editor's save by rename). Its content
            // decides: the same bytes up to the offset are the same log, read on from there.
            let kept = try Checkpoints.verifiedPrefix(checkpoints, file: log, size: log.status.size)
            let whole = log.startsLike(id) && kept.end == current.offset && kept.count == checkpoints.count
            if whole, try SharedContent.provesCopy(log, upTo: current.offset, clock: clock) {
                try continueCurrent(current, fresh: fresh)
                return
            }
            // All that was read, but not proven (written in one second): a new generation that
            // started as the old one did, read whole below.
            if kept.end > 0, snapshot.missed == 0, !whole {
                try replacedAndChanged(current, checkpoints: checkpoints, kept: kept)
                try readNew(fresh.filter { !isCopy($0) })
                return
            }
            // Shorter than the first chunk read, or changed inside it (a backup of the log's
            // first lines restored): the first bytes cannot prove it, the first line can, as
            // for a log cut in place.
            if !whole, snapshot.missed == 0, let first = checkpoints.first?.firstLine,
                try Checkpoints.firstLine(of: log, from: 0, to: checkpoints[0].end) == first
            {
                try cutInPlace(current, checkpoints: checkpoints, kept: kept, replaced: true)
                try readNew(fresh.filter { !isCopy($0) })
                return
            }
        }
        if !id.isStrong, current.offset == 0, !(old?.compressed ?? false), !stillHere(current) {
            // The log was empty at the last run and its file is gone (or its inode number
            // reused): the file taken for it (the live log or a rotated one) is not it, so what was written
            // to it since cannot be found. Nothing of it was read: the rest is read whole.
            gap(
                current.path, 0, nil,
                "the log was empty at the last run and that file (device \(id.device), inode \(id.inode)) is gone, with nothing proven to hold what was written to it since (rotated away and deleted?): its lines may be lost",
                uncertain: true)
            try readNew(fresh)
            try readCurrent(from: 0, checkpoints: [])
            return
        }
        if let old, old === log {
            try continueCurrent(current, fresh: fresh)
            return
        }
        var restored: (from: Int64, edited: Bool)? = nil
        if let old {
            try finishRotated(old, current)
            if id.isStrong {
                try readCopies(of: old, id, known: known)
                // Another inode that starts with the old file's bytes is no new generation (one
                // starts with lines written after the rotation): a copy of it, shorter than what
                // was read (a backup restored while the old file is kept under a rotated name).
                // (A file that cannot be read to compare, a damaged gzip one, proves nothing.)
                if !sameFile { restored = (try? SharedContent.divergence(of: log, from: old, clock: clock)) ?? nil }
            }
        } else if sameFile {
            gap(
                current.path, current.offset, nil,
                "the log was truncated or replaced in place (copytruncate?) and its old content was not found among the rotated files",
                uncertain: true)
        } else if snapshot.missed > 0 {
            // A file was renamed or compressed as the directory was listed: the old log may be
            // the one that was missed. Listed again rather than taken for lost (or, once
            // remembered as seen, never read).
            plan.changed = "\(current.path): rotated, and not found while a rotation renamed files; listed again"
            return
        } else {
            gap(
                current.path, current.offset, nil,
                "the log was rotated and the rotated file was not found (looked beside it for numbered and logrotate dateext names, also before the log's extension, plain or gzip)\(unreadableNote)"
            )
        }
        try readNew(fresh)
        if let restored {
            try readRestored(current, restored)
            return
        }
        try readCurrent(from: 0, checkpoints: [])
    }

    /// The live log is another inode whose first `restored.from` bytes are the old file's (a
    /// backup restored while the old file is kept under a rotated name, and the old file's
    /// lines from the offset read from it): counted already, not read again. What follows was
    /// written after the restore and is read, unless its first line is one the old file holds
    /// (`restored.edited`: an edited copy), when all of it to the last complete line is an
    /// `uncertain` gap, not read, so that nothing is counted twice.
    mutating func readRestored(_ current: RunState.Tracked, _ restored: (from: Int64, edited: Bool))
        throws(InputError)
    {
        let checkpoints = current.checkpoints ?? []
        let kept = try Checkpoints.verifiedPrefix(checkpoints, file: log, size: log.status.size)
        var from = restored.from
        if restored.edited {
            let end = try log.lastLineEnd(from: from, size: log.status.size)
            if end > from {
                gap(
                    current.path, from, end,
                    "the log was replaced by another file (device \(log.status.device), inode \(log.status.inode)) that holds the first \(from) bytes of the old one (kept under a rotated name), then lines the old one holds too (an edited copy?); these bytes may hold lines counted before and lines written since, and are not read, so that nothing is counted twice",
                    uncertain: true)
            }
            from = end
        }
        try readCurrent(from: from, checkpoints: Array(checkpoints.prefix(kept.count)))
    }

    /// Rotated files other than `old` that start as it did and were not seen as they are now: a
    /// copy of the log (`cp -p` + `mv`) written to, then rotated (the old file, found by its
    /// inode, at `.2`; the copy at `.1`). Their bytes up to where they stop holding `old`'s are
    /// `old`'s lines, counted when it is; what follows is read (an `uncertain` gap when its first
    /// line is one `old` holds too). One that shares too little with `old` to tell is left to
    /// the rules for files new since the last run.
    mutating func readCopies(of old: LogFile, _ id: FileIdentity, known: [RunState.KnownFile]?) throws(InputError) {
        for copy in unclaimed() where copy.startsLike(id) && !wasSeenUnchanged(copy, known: known) {
            guard let shared = (try? SharedContent.divergence(of: copy, from: old, clock: clock)) ?? nil else {
                continue
            }
            claimed.insert(ObjectIdentifier(copy))
            guard shared.edited else {
                try readRotated(copy, from: shared.from)
                continue
            }
            let end = copy.compressed ? nil : try copy.lastLineEnd(from: shared.from, size: copy.status.size)
            if end.map({ $0 > shared.from }) ?? true {
                gap(
                    copy.path, shared.from, end,
                    "this rotated file holds the first \(shared.from) bytes of the log's old file (\(old.path)), then lines that file holds too (an edited copy?); these bytes may hold lines counted before and lines written since, and are not read, so that nothing is counted twice",
                    uncertain: true)
            }
            if let end { try readRotated(copy, from: end) }
        }
    }

    /// Whether the last run saw `file` as it is now (its device, inode, size and time).
    func wasSeenUnchanged(_ file: LogFile, known: [RunState.KnownFile]?) -> Bool {
        (known ?? []).contains {
            $0.identity.device == file.status.device && $0.identity.inode == file.status.inode
                && $0.size == file.status.size && $0.modified == file.status.modified
        }
    }

    /// The live log is another inode that holds what was read up to the offset, and `old`, the
    /// file read before, is under a rotated name: the log was copied and the copy put in its
    /// place. The old file's tail is read from the offset, and the live log from where the bytes
    /// the two hold alike end; rotated files new since are not read (the log went on).
    mutating func copiedAside(_ current: RunState.Tracked, old: LogFile, checkpoints: [RunState.Checkpoint])
        throws(InputError)
    {
        claimed.insert(ObjectIdentifier(old))
        try readRotated(old, from: current.offset)
        let shared = try SharedContent.lineEnd(of: old, log, from: current.offset)
        try readCurrent(
            from: shared, checkpoints: checkpoints, recent: current.recentLines.map { ($0, current.offset) })
    }

    /// The live log is the file read before: on from the offset, unless it was cut in place.
    ///
    /// When it provably went on since the last run (its first bytes and the last chunk before
    /// the offset as they were, on enough bytes to tell, and no shorter), it was neither rotated
    /// away nor cut and copied: every line written since is in it, so no new file beside it can
    /// hold any, and none is read. A file named like a rotated one (`access.log.12`,
    /// `access.log-2026`, a backup) is then not counted as the log's lines. (`copytruncate`
    /// changes the log's first bytes: then its copy is looked for as before.)
    mutating func continueCurrent(_ current: RunState.Tracked, fresh: [LogFile]) throws(InputError) {
        let checkpoints = current.checkpoints
        if log.status.size >= current.offset, try Checkpoints.tailHolds(checkpoints ?? [], file: log) {
            let from = try lineStart(atOrBefore: current.offset)
            // (An offset inside a line, from a damaged state, starts the fingerprints afresh.)
            let recent = from == current.offset ? current.recentLines.map { ($0, current.offset) } : nil
            try readCurrent(from: from, checkpoints: checkpoints, recent: recent)
            if current.identity.isStrong, log.startsLike(current.identity),
                let last = checkpoints?.last, last.end == current.offset
            {
                return
            }
        } else if let checkpoints {
            let kept = try Checkpoints.verifiedPrefix(checkpoints, file: log, size: log.status.size)
            if kept.end > 0 {
                try cutInPlace(current, checkpoints: checkpoints, kept: kept)
            } else {
                gap(
                    current.path, current.offset, nil,
                    "the log was truncated or replaced in place and its old content was not found", uncertain: true)
                try readCurrent(from: 0, checkpoints: [])
            }
        } else {
            // A state from before checkpoints: shorter than the offset means replaced.
            gap(
                current.path, current.offset, nil,
                "the log is shorter than what was read and its old content was not found", uncertain: true)
            try readCurrent(from: 0, checkpoints: [])
        }
        try readNew(fresh.filter { !claimed.contains(ObjectIdentifier($0)) && !isCopy($0) })
    }

    /// `offset` when it is the start of a line (0, or just after a `\n`), else the start of the
    /// line it falls in. `run` only ever saves an offset after a complete line; one inside a
    /// line (a state edited by hand, or damaged) would lose the rest of that line without a word.
    func lineStart(atOrBefore offset: Int64) throws(InputError) -> Int64 {
        guard offset > 0, try log.bytes(from: offset - 1, to: offset) != [0x0A] else { return offset }
        return try log.lastLineEnd(from: 0, size: offset)
    }

    /// The live log is another inode whose content matches what was read only up to
    /// `kept.end`: it changed before the offset (restored from an older or edited copy). What
    /// it holds from there to its last complete line may be lines counted before, edited, or
    /// written since: an `uncertain` gap that names the changed range, not read, so that
    /// nothing is counted twice; reading goes on from its end.
    mutating func replacedAndChanged(
        _ current: RunState.Tracked, checkpoints: [RunState.Checkpoint], kept: (end: Int64, count: Int)
    ) throws(InputError) {
        let end = try log.lastLineEnd(from: kept.end, size: log.status.size)
        if end > kept.end {
            gap(
                current.path, kept.end, end,
                "the log was replaced by another file (device \(log.status.device), inode \(log.status.inode)) whose content differs from what had been read from byte \(kept.end) (of \(current.offset) read); these bytes may hold lines counted before and lines written since, and are not read, so that nothing is counted twice",
                uncertain: true)
        }
        try readCurrent(from: end, checkpoints: Array(checkpoints.prefix(kept.count)))
    }

    /// The log kept its first `kept.end` bytes (the chunks that still hash the same) and lost
    /// the rest, then may have been written on: it was cut between `kept.end` and the end of
    /// the next chunk (had it kept that chunk whole, the chunk would hash the same). Where
    /// exactly, the fingerprints of the last lines read tell (``LineFingerprints``): the
    /// log's lines from `kept.end` are compared with them, and the first that differs is where
    /// what was read ends; all from there on was written since and is read, with no gap.
    ///
    /// Without them (a state written before they were kept, or a cut below the lines they
    /// cover), the cut is known only when the chunk's first line is not there: then it was cut
    /// at `kept.end`, and all that follows is read. Otherwise what lies between `kept.end` and
    /// the first line that starts at or after the next chunk's end (or the first line
    /// fingerprinted, when the cut is found before it) may hold lines counted before and lines
    /// written since: an `uncertain` gap, not read; what follows it is read.
    /// When `replaced`, the live log is another inode (a backup of its start restored), said so.
    mutating func cutInPlace(
        _ current: RunState.Tracked, checkpoints: [RunState.Checkpoint], kept: (end: Int64, count: Int),
        replaced: Bool = false
    ) throws(InputError) {
        let (from, recent) = try cut(
            in: log, size: log.status.size, current: current, checkpoints: checkpoints, kept: kept)
        if recent == nil, from > kept.end {
            let what =
                replaced
                ? "the log was replaced by another file (device \(log.status.device), inode \(log.status.inode)) that starts with the first line read but differs from what was read (\(current.offset) bytes) from byte \(kept.end) or is shorter (a backup restored?)"
                : "the log was cut in place below what had been read (at \(current.offset))"
            gap(
                current.path, kept.end, from,
                "\(what); these bytes may hold lines counted before and lines written since, and are not read, so that nothing is counted twice",
                uncertain: true)
        }
        try readCurrent(from: from, checkpoints: Array(checkpoints.prefix(kept.count)), recent: recent)
    }

    /// Where what was read ends in `file` (its first `size` bytes), the log cut in place that
    /// kept its first `kept.end` bytes (``cutInPlace(_:checkpoints:kept:replaced:)``): where
    /// lines written since start, and the fingerprints of the lines before that point when
    /// they found it. Without them, bytes from `kept.end` to `from` are uncertain.
    func cut(
        in file: LogFile, size: Int64, current: RunState.Tracked, checkpoints: [RunState.Checkpoint],
        kept: (end: Int64, count: Int)
    ) throws(InputError) -> (from: Int64, recent: (lines: RunState.RecentLines, end: Int64)?) {
        let end = try file.lastLineEnd(from: kept.end, size: size)
        guard kept.count < checkpoints.count else { return (end, nil) }
        let next = checkpoints[kept.count]
        // The cut lies before the next chunk's end (had the log kept that chunk whole, it
        // would hash the same), or before the first line fingerprinted when it is not there.
        var bound = next.end
        if let lines = current.recentLines, lines.start < next.end {
            switch try LineFingerprints.cut(lines, verified: kept.end, file: file, size: size) {
            case .found(let cut, let same):
                return (cut, (same, cut))
            case .atOrBefore(let offset):
                bound = min(bound, offset)
            case .unknown:
                break
            }
        }
        if let first = next.firstLine, try Checkpoints.firstLine(of: file, from: kept.end, to: next.end) != first {
            return (kept.end, nil)
        }
        return (bound <= end ? try lineStart(atOrAfter: bound, in: file) : end, nil)
    }

    /// The file read before, found under a rotated name (or a copy of it, plain or gzip): read
    /// on from the offset, when it holds what was read up to there (as long, and its last chunk
    /// before the offset hashing the same).
    ///
    /// Otherwise the log was cut in place below the offset, maybe written on, then rotated: its
    /// old content ends where the same checks as for a live log cut in place find it (the
    /// chunks that still hash the same, then the fingerprints of the last lines read), and it
    /// is read from there; only bytes those cannot tell apart are an `uncertain` gap. One that
    /// no longer starts with the first line read was emptied (or copied and truncated, the copy
    /// not found): read whole, what the log held past the offset before that an `uncertain` gap,
    /// as for a live log. A gzip file is decompressed to look (at most
    /// ``LogPlanner/maxCutSearch`` bytes: beyond, what it lacks below the offset is a gap).
    mutating func finishRotated(_ old: LogFile, _ current: RunState.Tracked) throws(InputError) {
        claimed.insert(ObjectIdentifier(old))
        guard current.identity.isStrong, let checkpoints = current.checkpoints, !checkpoints.isEmpty,
            let (view, size) = content(of: old, upTo: current.offset)
        else {
            try readRotated(old, from: current.offset)
            return
        }
        if size >= current.offset,
            try view.map({ v throws(InputError) in try Checkpoints.tailHolds(checkpoints, file: v) }) ?? true
        {
            try readRotated(old, from: current.offset)
            return
        }
        guard let content = view else {
            // A gzip file too long to search, shorter than what was read.
            gap(
                old.path, 0, size,
                "the log was cut in place below what had been read (at \(current.offset)) before it was rotated to this file, which is too long to look for the cut in (more than \(LogPlanner.maxCutSearch) bytes decompressed); its lines may have been counted before or written since, and are not read, so that nothing is counted twice",
                uncertain: true)
            try readRotated(old, from: size)
            return
        }
        let kept = try Checkpoints.verifiedPrefix(checkpoints, file: content, size: size)
        if kept.end == 0, let first = checkpoints[0].firstLine,
            try Checkpoints.firstLine(of: content, from: 0, to: checkpoints[0].end) != first
        {
            gap(
                current.path, current.offset, nil,
                "the log was truncated in place (emptied, or by copytruncate whose copy was not found), then rotated to \(old.path), which starts with other lines, written since, and is read whole; what the log held past what had been read, before it was truncated, may be lost",
                uncertain: true)
            try readRotated(old, from: 0)
            return
        }
        let (from, recent) = try cut(
            in: content, size: size, current: current, checkpoints: checkpoints, kept: kept)
        if recent == nil, from > kept.end {
            gap(
                old.path, kept.end, from,
                "the log was cut in place below what had been read (at \(current.offset)), then rotated to this file; these bytes may hold lines counted before and lines written since, and are not read, so that nothing is counted twice",
                uncertain: true)
        }
        try readRotated(old, from: from)
    }

    /// The content of `old` to look for a cut in: a plain file itself; a gzip one's
    /// decompressed content held in memory, up to 1 MiB past `offset`, when `offset` is at
    /// most ``LogPlanner/maxCutSearch``, else only its decompressed size (up to `offset`).
    /// Nil when it cannot be decompressed (reading it reports the damage).
    func content(of file: LogFile, upTo offset: Int64) -> (file: LogFile?, size: Int64)? {
        guard file.compressed else { return (file, file.status.size) }
        let keep = offset <= LogPlanner.maxCutSearch
        let limit = keep ? offset + (1 << 20) : offset
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total: Int64 = 0
        do {
            var source = try file.content(from: 0)
            while total < limit {
                let want = Int(min(Int64(buffer.count), limit - total))
                let n = try buffer.withUnsafeMutableBytes { raw throws(InputError) in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
                }
                if n == 0 { break }
                if keep { bytes.append(contentsOf: buffer[0..<n]) }
                total += Int64(n)
            }
        } catch {
            return nil
        }
        guard keep else { return (nil, total) }
        let inode = MemoryInode(number: file.status.inode, bytes: bytes)
        return (
            LogFile(path: file.path, inode: inode, device: file.status.device, modified: file.status.modified), total
        )
    }

    /// `offset` when a line starts there, else just after the `\n` that follows it (a line
    /// must end at or after `offset`: the caller's bound).
    func lineStart(atOrAfter offset: Int64, in file: LogFile? = nil) throws(InputError) -> Int64 {
        var at = offset
        if at > 0, try (file ?? log).bytes(from: at - 1, to: at) == [0x0A] { return at }
        while true {
            let block = try (file ?? log).bytes(from: at, to: at + 4096)
            if block.isEmpty { return at }
            if let nl = block.firstIndex(of: 0x0A) { return at + Int64(nl) + 1 }
            at += Int64(block.count)
        }
    }

    /// The live log from `from` to its last complete line; it becomes the tracked current file.
    /// `recent` are the fingerprints of the log's lines up to their `end` (at or before `from`),
    /// carried on; without them, the lines from `from` on are fingerprinted.
    mutating func readCurrent(
        from: Int64, checkpoints: [RunState.Checkpoint]?,
        recent: (lines: RunState.RecentLines, end: Int64)? = nil
    ) throws(InputError) {
        let end = try log.lastLineEnd(from: from, size: log.status.size)
        if end > from { plan.steps.append(ReadStep(file: log, from: from, to: end)) }
        var tracked = RunState.Tracked(
            identity: log.identity, offset: end, size: log.status.size, modified: log.status.modified, path: logPath)
        tracked.target = snapshot.target
        guard let extended = try Checkpoints.extend(checkpoints ?? [], file: log, to: end) else {
            plan.changed = "\(log.path) was truncated while it was planned"
            return
        }
        tracked.checkpoints = extended
        guard
            let lines = try LineFingerprints.extend(
                recent?.lines, end: recent?.end ?? from, file: log, to: end)
        else {
            plan.changed = "\(log.path) was truncated while it was planned"
            return
        }
        tracked.recentLines = lines
        plan.next.current = tracked
    }

    /// A rotated file from `offset`: a compressed one to its end (final), a plain one to its
    /// last complete line and followed on.
    mutating func readRotated(_ file: LogFile, from offset: Int64) throws(InputError) {
        if file.compressed {
            plan.steps.append(ReadStep(file: file, from: offset, to: nil))
            return
        }
        let complete = try file.lastLineEnd(from: offset, size: file.status.size)
        let end = complete < file.status.size && isSettled(file) ? file.status.size : complete
        if end > offset { plan.steps.append(ReadStep(file: file, from: offset, to: end)) }
        plan.next.draining.append(
            RunState.Tracked(
                identity: file.identity, offset: max(end, offset), size: file.status.size,
                modified: file.status.modified, path: file.path))
    }

    /// Whether no write has touched `file` for ``LogPlanner/settleNanoseconds``. nginx writes
    /// each line with one write(2), so a partial last line still there is torn for good
    /// (copytruncate copied a line half-written, then cut the log): it is read as the file's
    /// last line (counted malformed), not waited for in every run until the file is deleted.
    func isSettled(_ file: LogFile) -> Bool {
        snapshot.takenAt != Int64.min && snapshot.takenAt - file.status.modified >= LogPlanner.settleNanoseconds
    }

    /// Rotated files new since the last run, whole, oldest first; those beyond the limit are gaps.
    mutating func readNew(_ fresh: [LogFile]) throws(InputError) {
        var files: [LogFile] = []
        for file in fresh where !claimed.contains(ObjectIdentifier(file)) && !isCopy(file) {
            // A compressed copy of a file also listed (logrotate compressing it right now).
            if files.contains(where: { holdsCopy(of: $0, file) || holdsCopy(of: file, $0) }) { continue }
            files.append(file)
        }
        if files.count > LogPlanner.maxNewRotated {
            for file in files.prefix(files.count - LogPlanner.maxNewRotated) {
                gap(
                    file.path, 0, file.compressed ? nil : file.status.size,
                    "more than \(LogPlanner.maxNewRotated) rotated files appeared since the last run; the oldest were not read (run more often, or read them with uaaudit scan)"
                )
                claimed.insert(ObjectIdentifier(file))
            }
            files.removeFirst(files.count - LogPlanner.maxNewRotated)
        }
        for file in files {
            claimed.insert(ObjectIdentifier(file))
            try readRotated(file, from: 0)
        }
    }

    /// The rotated file holding `identity` from `offset` on: the same inode with the same first
    /// bytes, else a plain copy, else a compressed one. A weak identity matches only its own inode.
    func locate(_ identity: FileIdentity, offset: Int64, among files: [LogFile]) -> LogFile? {
        let matching = files.filter { file in
            file.startsLike(identity)
                && (identity.isStrong
                    || (!file.compressed && file.status.device == identity.device
                        && file.status.inode == identity.inode && file.status.size >= offset))
        }
        func rank(_ file: LogFile) -> Int {
            if file.compressed { return 2 }
            return file.status.device == identity.device && file.status.inode == identity.inode ? 0 : 1
        }
        return matching.min { rank($0) < rank($1) }
    }

    /// The plain file read before under a rotated name, though it no longer starts with the
    /// bytes it had: the same device and inode, created before the last run saw it (not another
    /// file on a reused number). It was cut in place (to empty, or below its first bytes), then
    /// rotated. None while a rotation renamed files as they were listed.
    func cutAndRotated(_ current: RunState.Tracked) -> LogFile? {
        guard snapshot.missed == 0 else { return nil }
        let id = current.identity
        return unclaimed().first {
            !$0.compressed && $0.status.device == id.device && $0.status.inode == id.inode
                && ($0.born ?? Int64.min) <= current.modified
        }
    }

    /// A rotated file new since the last run (another inode) that starts with the first line
    /// read but not with the bytes read: the log was cut in place inside its first chunk, written
    /// on, then rotated by a copy (`copytruncate`) or compressed at once (`compress` without
    /// `delaycompress`). ``finishRotated(_:_:)`` then finds where its old content ends. Only
    /// one such file: two would leave which one it is unknown.
    func cutThenMoved(_ current: RunState.Tracked, known: [RunState.KnownFile]?) -> LogFile? {
        guard snapshot.missed == 0, let chunk = current.checkpoints?.first, let first = chunk.firstLine else {
            return nil
        }
        let limit = Int(min(chunk.end, Checkpoints.interval))
        let matching = unclaimed().filter { file in
            guard isNew(file, known: known, current: current) else { return false }
            let head = Array(file.prefix.prefix(limit))
            if let nl = head.firstIndex(of: 0x0A) { return Checkpoints.hash(Array(head[...nl])) == first }
            return head.count == limit && Checkpoints.hash(head) == first
        }
        return matching.count == 1 ? matching[0] : nil
    }

    /// The file a short (weak) identity was read from, among the files new or changed since:
    /// the oldest whose content starts with the bytes it had and is as long as the offset.
    func locateWeak(_ current: RunState.Tracked, _ fresh: [LogFile]) -> LogFile? {
        let id = current.identity
        let renamedUnchanged = unclaimed().filter {
            $0.status.device == id.device && $0.status.inode == id.inode && $0.status.size == current.size
                && $0.status.modified == current.modified
        }
        // A copy of the live log being written (copytruncate) holds the live log's lines, not older ones.
        let pool = (fresh.filter { !holdsCopy(of: log, $0) } + renamedUnchanged + [log]).filter { file in
            guard file.startsLike(id) else { return false }
            if file.compressed { return !file.prefixIsWhole || Int64(file.prefix.count) >= current.offset }
            return file.status.size >= current.offset
        }
        return pool.min { ($0.status.modified, $0.path) < ($1.status.modified, $1.path) }
    }

    /// Whether the plain file on `current`'s device and inode is still among the files (the
    /// live log, or one renamed to a rotated name): not another one on the inode number, born
    /// after the file's last modification seen.
    func stillHere(_ current: RunState.Tracked) -> Bool {
        ([log] + snapshot.rotated).contains {
            !$0.compressed && $0.status.device == current.identity.device
                && $0.status.inode == current.identity.inode && ($0.born ?? Int64.min) <= current.modified
        }
    }

    /// New since the last run: not a file it saw unchanged, nor one with the content of one it saw.
    func isNew(_ file: LogFile, known: [RunState.KnownFile]?, current: RunState.Tracked) -> Bool {
        guard let known else { return file.status.modified > current.modified }  // a state from before `known`
        return !known.contains { k in
            if k.identity.device == file.status.device, k.identity.inode == file.status.inode,
                k.size == file.status.size,
                k.modified == file.status.modified
            {
                return true
            }
            if k.identity.isStrong { return file.startsLike(k.identity) }
            return file.prefixIsWhole && file.prefix.count == k.identity.fingerprintBytes && file.startsLike(k.identity)
        }
    }

    /// ``isNew(_:known:current:)`` for a candidate not read: a link, which has no content, by
    /// its own device, inode, size and time.
    func isNew(_ skipped: SkippedCandidate, known: [RunState.KnownFile]?, current: RunState.Tracked) -> Bool {
        if let file = skipped.file { return isNew(file, known: known, current: current) }
        guard let known else { return skipped.status.modified > current.modified }
        return !known.contains {
            $0.identity.device == skipped.status.device && $0.identity.inode == skipped.status.inode
                && $0.size == skipped.status.size && $0.modified == skipped.status.modified
        }
    }

    /// A copy (or the compressed form) of a file already read this run, or of the live log.
    func isCopy(_ file: LogFile) -> Bool {
        snapshot.rotated.contains { other in
            other !== file && claimed.contains(ObjectIdentifier(other)) && holdsCopy(of: other, file)
        } || holdsCopy(of: log, file)
    }

    /// Whether `copy` holds a copy of `source`'s content, whole or the start of it: the two
    /// start with the same bytes, on enough of them to tell; or `copy` is too short to tell
    /// and is all of it the start of `source` (an empty file, or a copy logrotate is still
    /// writing: reading it now and its rest later would count the source's lines twice).
    ///
    /// Two plain files with the same first bytes are two generations, not a copy, unless the
    /// copy is no longer than the source and its last bytes are the source's at the same offsets
    /// (two generations can start alike: the same requests, a probe's lines).
    func holdsCopy(of source: LogFile, _ copy: LogFile) -> Bool {
        let n = min(source.prefix.count, copy.prefix.count)
        if n >= FileIdentity.minimumEvidenceBytes {
            guard source.prefix[0..<n] == copy.prefix[0..<n] else { return false }
            return source.compressed || copy.compressed || endsLikeStart(of: source, copy)
        }
        return copy.prefixIsWhole && source.prefix.starts(with: copy.prefix)
    }

    /// Whether plain `copy` is no longer than `source` and ends with the bytes `source` holds
    /// at the same offsets (its last 4 KiB beyond the first bytes already compared).
    func endsLikeStart(of source: LogFile, _ copy: LogFile) -> Bool {
        let end = copy.status.size
        guard end <= source.status.size else { return false }
        let start = max(Int64(copy.prefix.count), end - Int64(FileIdentity.maxFingerprintBytes))
        guard start < end else { return true }
        guard let tail = try? copy.bytes(from: start, to: end), tail.count == Int(end - start),
            let same = try? source.bytes(from: start, to: end)
        else { return false }
        return tail == same
    }

    mutating func gap(_ file: String, _ from: Int64, _ to: Int64?, _ reason: String, uncertain: Bool = false) {
        var gap = Report.Gap(
            log: logPath, file: file, fromOffset: from, toOffset: to, reason: reason, detectedAt: detectedAt)
        if uncertain { gap.uncertain = true }
        plan.gaps.append(gap)
    }
}
