import Glibc

/// One stretch of a file to read in this run.
package struct ReadStep: Sendable, Equatable {
    package var path: String
    package var compressed: Bool
    /// Offset in the (decompressed) content to start at.
    package var from: Int64
    /// Where to stop (after the last complete line); nil reads to the end of the content.
    package var to: Int64?
}

/// What to read of one log in this run, what could not be read, and where reading will stand.
package struct LogPlan: Sendable {
    package var steps: [ReadStep] = []
    package var gaps: [RunState.Gap] = []
    package var next = RunState.LogState()
    /// Files that could not be read while planning: the log must not be advanced this run.
    package var errors: [InputError] = []
}

/// Decides, from the saved position and what is on disk now, which bytes of a log to read.
///
/// Same file (device, inode and fingerprint) and not shorter: read on from the offset. Identity
/// changed (nginx after `mv` and reopen, logrotate's `create`): find the old file among the
/// rotated names by identity (decompressing `.gz`), finish it, read any newer rotated files,
/// then the new file from the start. Same inode but other content or shorter (`copytruncate`,
/// truncation, a reused inode): look for the old content among the rotated files; what cannot
/// be found is a gap, never a silent skip. The current file is read up to its last complete
/// line; a partial last line waits for the next run.
package enum LogPlanner {
    package static func plan(logPath: String, saved: RunState.LogState?, detectedAt: String) -> LogPlan {
        var plan = LogPlan()
        let candidates = RotationCandidates.list(for: logPath)
        let now = try? Syscalls.status(logPath)
        if let now, now.isRegular, let error = unreadable(logPath) {
            // Not a rotation: the same file may be readable next run (permissions put back, a
            // disk error gone). Comparing identities now would see a replaced file, and lose
            // the position.
            plan.errors.append(error)
            return plan
        }
        var planned = Set<String>()

        // Rotated files read before that may have got more lines since.
        for tracked in saved?.draining ?? [] {
            guard let found = locate(tracked.identity, in: candidates) else {
                if tracked.size > tracked.offset {
                    plan.gaps.append(
                        gap(
                            logPath, tracked, tracked.size, "rotated file disappeared before it was read to its end",
                            detectedAt))
                }
                continue
            }
            planned.insert(found.path)
            if let kept = read(found, from: tracked.offset, identity: tracked.identity, into: &plan) {
                plan.next.draining.append(kept)
            }
        }

        guard let current = saved?.current else {
            // First run for this log: read all of it.
            if let now, now.isRegular { startCurrent(logPath, now, into: &plan) }
            return plan
        }

        if let now, now.isRegular, now.device == current.identity.device, now.inode == current.identity.inode,
            now.size >= current.offset, ContentPrefix.matches(path: logPath, identity: current.identity)
        {
            // The same file, grown (or not): read on.
            let end = lastLineEnd(logPath, from: current.offset, size: now.size, into: &plan)
            if end > current.offset {
                plan.steps.append(ReadStep(path: logPath, compressed: false, from: current.offset, to: end))
            }
            plan.next.current = RunState.Tracked(
                identity: refreshed(current.identity, path: logPath, size: now.size), offset: end, size: now.size,
                modified: now.modified, path: logPath)
            return plan
        }

        // The file at the path is not the one we were reading: find where that one went.
        let old = locate(current.identity, in: candidates.filter { !planned.contains($0.path) })
        if let old {
            planned.insert(old.path)
            if let kept = read(old, from: current.offset, identity: current.identity, into: &plan) {
                plan.next.draining.append(kept)
            }
        } else {
            let reason: String
            if let now, now.inode == current.identity.inode, now.device == current.identity.device {
                reason =
                    "the log was truncated or replaced in place (copytruncate?) and its old content was not found among the rotated files"
            } else {
                reason =
                    "the log was rotated and the rotated file was not found (looked for .1, .0, -DATE and .gz names)"
            }
            plan.gaps.append(gap(logPath, current, nil, reason, detectedAt))
        }
        // Files rotated after the old one and before the current one: read them whole.
        let since = old?.status.modified ?? current.modified
        let currentIdentity = now.flatMap { try? identity(logPath, $0) }
        for candidate in candidates where candidate.status.modified > since && !planned.contains(candidate.path) {
            if let currentIdentity, candidate.status.inode == currentIdentity.inode,
                candidate.status.device == currentIdentity.device
            {
                continue
            }
            if plan.next.draining.contains(where: { ContentPrefix.matches(path: candidate.path, identity: $0.identity) }
            ) {
                continue  // a compressed copy of a file already being read
            }
            guard let whole = try? identity(candidate.path, candidate.status) else { continue }
            planned.insert(candidate.path)
            if let kept = read(candidate, from: 0, identity: whole, into: &plan) { plan.next.draining.append(kept) }
        }
        if let now, now.isRegular { startCurrent(logPath, now, into: &plan) }
        if plan.next.draining.count > 16 { plan.next.draining.removeFirst(plan.next.draining.count - 16) }
        return plan
    }

    /// Reads a new current file from its start.
    private static func startCurrent(_ path: String, _ status: FileStatus, into plan: inout LogPlan) {
        guard let id = try? identity(path, status) else { return }
        let end = lastLineEnd(path, from: 0, size: status.size, into: &plan)
        if end > 0 { plan.steps.append(ReadStep(path: path, compressed: false, from: 0, to: end)) }
        plan.next.current = RunState.Tracked(
            identity: id, offset: end, size: status.size, modified: status.modified, path: path)
    }

    /// Plans reading a rotated file from `offset`; returns what to keep tracking (nil once it is finished).
    private static func read(
        _ file: RotationCandidates.Candidate, from offset: Int64, identity: FileIdentity, into plan: inout LogPlan
    ) -> RunState.Tracked? {
        if file.compressed {
            // Compressed: final. Read to the end of its content.
            plan.steps.append(ReadStep(path: file.path, compressed: true, from: offset, to: nil))
            return nil
        }
        let end = lastLineEnd(file.path, from: offset, size: file.status.size, into: &plan)
        if end > offset { plan.steps.append(ReadStep(path: file.path, compressed: false, from: offset, to: end)) }
        var id = identity
        id.device = file.status.device
        id.inode = file.status.inode
        return RunState.Tracked(
            identity: id, offset: end, size: file.status.size, modified: file.status.modified, path: file.path)
    }

    /// The rotated file holding `identity`: the same inode with the same first bytes, else any
    /// file (a copy, a `.gz`) whose content starts with those bytes.
    static func locate(_ identity: FileIdentity, in candidates: [RotationCandidates.Candidate]) -> RotationCandidates
        .Candidate?
    {
        if let same = candidates.first(where: {
            !$0.compressed && $0.status.inode == identity.inode && $0.status.device == identity.device
                && ContentPrefix.matches(path: $0.path, identity: identity)
        }) {
            return same
        }
        guard identity.fingerprintBytes > 0 else { return nil }
        return candidates.first { ContentPrefix.matches(path: $0.path, identity: identity) }
    }

    /// Why the file at `path` cannot be read now (permissions, a read error in the bytes its
    /// identity needs), or nil when it can.
    static func unreadable(_ path: String) -> InputError? {
        do {
            Syscalls.close(try Syscalls.open(path, flags: O_RDONLY))
            _ = try ContentPrefix.read(path: path, count: FileIdentity.maxFingerprintBytes)
            return nil
        } catch let error as SystemError {
            return InputError(path: path, reason: "cannot open: \(error.description)")
        } catch let error as InputError {
            return error
        } catch {
            return InputError(path: path, reason: "\(error)")
        }
    }

    static func identity(_ path: String, _ status: FileStatus) throws -> FileIdentity {
        let prefix = try ContentPrefix.read(path: path, count: FileIdentity.maxFingerprintBytes)
        return FileIdentity(
            device: status.device, inode: status.inode, fingerprint: FileIdentity.fingerprint(of: prefix),
            fingerprintBytes: prefix.count)
    }

    /// A longer fingerprint once the file has more bytes than the saved one covered.
    static func refreshed(_ id: FileIdentity, path: String, size: Int64) -> FileIdentity {
        guard id.fingerprintBytes < FileIdentity.maxFingerprintBytes, size > Int64(id.fingerprintBytes),
            let prefix = try? ContentPrefix.read(path: path, count: FileIdentity.maxFingerprintBytes)
        else { return id }
        var longer = id
        longer.fingerprint = FileIdentity.fingerprint(of: prefix)
        longer.fingerprintBytes = prefix.count
        return longer
    }

    /// The offset just after the last `\n` in `[from, size)` of a plain file, or `from` if none.
    ///
    /// A file that cannot be opened or read is recorded in `plan.errors` (and `from` returned),
    /// so that the run reports it and does not advance the log; a file that shrank meanwhile
    /// has no complete line to read yet.
    static func lastLineEnd(_ path: String, from: Int64, size: Int64, into plan: inout LogPlan) -> Int64 {
        guard size > from else { return from }
        let fd: Int32
        do {
            fd = try Syscalls.open(path, flags: O_RDONLY)
        } catch {
            plan.errors.append(InputError(path: path, reason: "cannot open: \(error.description)"))
            return from
        }
        defer { Syscalls.close(fd) }
        var end = size
        while end > from {
            let start = max(from, end - Int64(64 << 10))
            let want = Int(end - start)
            var block = [UInt8](repeating: 0, count: want)
            var got = 0
            while got < want {
                let n: Int
                do {
                    n = try Syscalls.read(fd, into: &block, from: got, offset: start + Int64(got))
                } catch {
                    plan.errors.append(
                        InputError(
                            path: path, reason: "read failed: \(error.description)", offset: start + Int64(got)))
                    return from
                }
                if n == 0 { return from }
                got += n
            }
            if let i = block.lastIndex(of: 0x0A) { return start + Int64(i) + 1 }
            end = start
        }
        return from
    }

    private static func gap(
        _ log: String, _ tracked: RunState.Tracked, _ to: Int64?, _ reason: String, _ at: String
    ) -> RunState.Gap {
        RunState.Gap(
            log: log, file: tracked.path, fromOffset: tracked.offset, toOffset: to, reason: reason, detectedAt: at)
    }
}
