import Glibc
import UAAuditInput

extension Worker {
    /// Reads one work item into a new tally, on this worker's thread.
    func read(_ item: WorkItem) -> ChunkResult {
        switch item {
        case .chunk(let input, let index):
            var range = ProgressSource(
                base: FileRangeSource(
                    fd: input.fd, path: input.path, start: input.bounds[index], end: input.bounds[index + 1]),
                progress: progress)
            let (tally, failure) = audit(&range)
            return ChunkResult(tally: tally, failure: failure, consumed: range.consumed)
        case .whole(let input):
            return readWhole(input)
        case .unread(let source):
            return ChunkResult(tally: nil, failure: nil, consumed: 0, source: source)
        }
    }

    /// Reads a whole input as one stretch (gzip detected by its magic bytes) and fills in its
    /// source entry: lines, bytes, error, and for what is not a regular file a hash of every
    /// byte read (``AuditResult/Source/contentHash``).
    private func readWhole(_ input: WholeInput) -> ChunkResult {
        let path = input.path
        var source = AuditResult.Source(path: path)
        let fd: Int32
        if let given = input.fd {
            fd = given
        } else {
            do {
                fd = try Syscalls.open(path, flags: O_RDONLY)
            } catch {
                source.error = "cannot open: \(error.description)"
                return ChunkResult(tally: nil, failure: nil, consumed: 0, source: source)
            }
        }
        defer { if input.closes { Syscalls.close(fd) } }
        // The plan fstat-ed and sniffed a regular file (and set it non-blocking).
        let regular = input.magic != nil || ((try? Syscalls.fstat(fd))?.isRegular ?? false)
        // A regular file is read without blocking: one that would wait (/proc/kmsg) is a read
        // error, not a hang. (A pipe keeps blocking reads: its writer is still writing.)
        if regular, input.magic == nil, path != "-" { Syscalls.setNonBlocking(fd) }
        var base = FileRangeSource(fd: fd, path: path, seekable: regular)
        // What is not a regular file is read once, and known by a hash of what was read.
        let hasher = regular ? nil : SHA256.Stream()
        base.hasher = hasher
        let tally = readStream(&base, magic: input.magic, into: &source)
        if let hasher { source.contentHash = SHA256.hex(hasher.finish()) }
        return ChunkResult(tally: tally, failure: nil, consumed: source.bytes, source: source)
    }

    /// Reads `base` (whose first bytes are `known`, when the plan read them) into a tally and
    /// fills in `source`; nil when nothing could be read.
    private func readStream(_ base: inout FileRangeSource, magic known: [UInt8]?, into source: inout AuditResult.Source)
        -> Tally?
    {
        let path = source.path
        let magic: [UInt8]
        if let known {
            magic = known
            base.position = Int64(known.count)
        } else {
            do {
                magic = try WorkPlan.sniff(&base)
            } catch {
                source.error = error.reason
                return nil
            }
        }
        // Progress counts the bytes read from the input (compressed ones for gzip), as its size
        // does; the sniffed bytes are counted here, once.
        progress?.add(bytes: magic.count, lines: 0)
        let prefixed = PrefixedSource(prefix: magic, base: ProgressSource(base: base, progress: progress))
        let tally: Tally
        let failure: InputError?
        if GzipSource<FileRangeSource>.isGzip(magic) {
            do {
                var gzip = try GzipSource(base: prefixed, path: path)
                (tally, failure) = audit(&gzip)
                source.bytes = gzip.consumed
                source.unverified = failure?.unverified ?? false
            } catch {
                source.error = error.reason
                return nil
            }
        } else {
            var stream = prefixed
            (tally, failure) = audit(&stream)
            source.bytes = stream.consumed
        }
        source.lines = tally.lines
        source.malformed = tally.malformed
        source.keepProbe(from: tally)
        source.error = failure.map(Worker.describe)
        return tally
    }

    /// An error's reason, and where it happened when that is known.
    static func describe(_ error: InputError) -> String {
        if let offset = error.offset { return "\(error.reason) (at byte \(offset))" }
        return error.reason
    }
}
