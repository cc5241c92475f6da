import Glibc
import UAAuditInput

/// One file of a log, opened once for a run: what `fstat` said of the descriptor then, the
/// first bytes of its content, and reads through that same descriptor.
///
/// Planning and reading both go through the descriptor, so a rename between them cannot swap
/// the bytes: what is read is the file that was planned. (An in-place truncation, as by
/// `copytruncate`, still can change them; ``RunEngine`` checks after reading.) Tests build
/// files in memory to drive ``LogPlanner`` through whole scenarios.
final class LogFile: Sendable {
    let path: String
    let status: FileStatus
    /// A gzip file: its content is the decompressed stream.
    let compressed: Bool
    /// The first ``FileIdentity/maxFingerprintBytes`` bytes of the content (decompressed for
    /// gzip) when it was opened, or all of it when it is shorter.
    let prefix: [UInt8]
    /// The fingerprint of `prefix`, computed once: files are compared with every known one.
    let fingerprint: String
    /// When the file was created (ns since the epoch), where the system says.
    let born: Int64?
    /// A format of another compressor than gzip, found by its first bytes (opened with
    /// `detectingCompression`): the content is not text `run` can read.
    let otherCompression: CompressionFormat?
    /// Mostly holes (``SparseFile``): no log written by appending, and reading its zeros would
    /// cost a run minutes. Never for a file held in memory.
    let sparse: Bool
    private let backing: Backing

    private enum Backing: Sendable {
        case descriptor(Int32)
        case memory(MemoryInode)
    }

    /// Opens `path` (never blocking on a FIFO), checks that the descriptor is a regular file,
    /// and reads the first bytes of its content. Unless `followingLinks`, a symbolic link is
    /// not followed (`O_NOFOLLOW`: the open fails with `ELOOP`), as for a rotated file, which
    /// another user may have put there. With `detectingCompression`, a file not `compressed`
    /// is read as gzip when it starts with gzip's magic number, and one in another
    /// compressor's format is marked (``otherCompression``).
    static func open(
        path: String, compressed: Bool, followingLinks: Bool = true, detectingCompression: Bool = false
    ) throws(InputError) -> LogFile {
        let fd: Int32
        do {
            fd = try Syscalls.open(path, flags: O_RDONLY | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        } catch {
            throw InputError(path: path, reason: "cannot open: \(error.description)", openErrno: error.errno)
        }
        let status: FileStatus
        do {
            status = try Syscalls.fstatus(fd)
        } catch {
            Syscalls.close(fd)
            throw InputError(path: path, reason: "cannot stat: \(error.description)")
        }
        guard status.isRegular else {
            Syscalls.close(fd)
            throw InputError(path: path, reason: "is not a regular file")
        }
        let prefix: [UInt8]
        var gzip = compressed
        var other: CompressionFormat? = nil
        do {
            if detectingCompression, !compressed {
                var magic = [UInt8](repeating: 0, count: CompressionFormat.magicBytes)
                var raw = FileRangeSource(fd: fd, path: path)
                magic.removeLast(magic.count - (try ContentPrefix.fill(&raw, &magic)))
                switch CompressionFormat(magic: magic) {
                case .gzip?: gzip = true
                case let format?: other = format
                case nil: break
                }
            }
            prefix = try readPrefix(fd: fd, path: path, compressed: gzip)
        } catch {
            Syscalls.close(fd)
            throw error
        }
        return LogFile(
            path: path, status: status, compressed: gzip, prefix: prefix, born: BirthTime.of(fd: fd),
            otherCompression: other, sparse: SparseFile.isMostlyHoles(fd: fd, size: status.size),
            backing: .descriptor(fd))
    }

    /// A file held in memory, opened as it is now (its content is the decompressed content
    /// when `compressed`); later changes to `inode` show through reads, as on a real inode.
    init(path: String, inode: MemoryInode, device: UInt64 = 1, modified: Int64, compressed: Bool = false) {
        self.path = path
        self.status = FileStatus(
            device: device, inode: inode.number, size: Int64(inode.bytes.count), modified: modified)
        self.compressed = compressed
        self.prefix = Array(inode.bytes.prefix(FileIdentity.maxFingerprintBytes))
        self.fingerprint = FileIdentity.fingerprint(of: prefix)
        self.born = inode.born
        self.otherCompression = nil
        self.sparse = false
        self.backing = .memory(inode)
    }

    private init(
        path: String, status: FileStatus, compressed: Bool, prefix: [UInt8], born: Int64?,
        otherCompression: CompressionFormat?, sparse: Bool, backing: Backing
    ) {
        self.path = path
        self.status = status
        self.compressed = compressed
        self.prefix = prefix
        self.fingerprint = FileIdentity.fingerprint(of: prefix)
        self.born = born
        self.otherCompression = otherCompression
        self.sparse = sparse
        self.backing = backing
    }

    deinit {
        if case .descriptor(let fd) = backing { Syscalls.close(fd) }
    }

    /// Whether `prefix` is the whole content (the file is shorter than a full fingerprint).
    var prefixIsWhole: Bool { prefix.count < FileIdentity.maxFingerprintBytes }

    /// The identity of this file as it was opened: its device, inode and first bytes.
    var identity: FileIdentity {
        FileIdentity(
            device: status.device, inode: status.inode, fingerprint: fingerprint, fingerprintBytes: prefix.count)
    }

    /// Whether the content begins with the bytes `identity` fingerprinted (any length).
    func startsLike(_ identity: FileIdentity) -> Bool {
        guard prefix.count >= identity.fingerprintBytes else { return false }
        if prefix.count == identity.fingerprintBytes { return fingerprint == identity.fingerprint }
        return FileIdentity.fingerprint(of: Array(prefix[0..<identity.fingerprintBytes])) == identity.fingerprint
    }

    /// Reads raw bytes (compressed ones for gzip) at `offset`; 0 at the end.
    func pread(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(InputError) -> Int {
        guard buffer.count > 0 else { return 0 }
        switch backing {
        case .descriptor(let fd):
            do {
                return try Syscalls.pread(fd, buffer.baseAddress!, buffer.count, offset)
            } catch {
                throw InputError(path: path, reason: "read failed: \(error.description)", offset: offset)
            }
        case .memory(let inode):
            let content = inode.bytes
            guard offset < Int64(content.count) else { return 0 }
            let n = min(buffer.count, content.count - Int(offset))
            content.withUnsafeBytes {
                buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n)
            }
            return n
        }
    }

    /// Reads `[from, to)` of a plain file whole; fewer bytes when the file ends first.
    func bytes(from: Int64, to: Int64) throws(InputError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(max(0, to - from)))
        var got = 0
        while got < out.count {
            let result: Result<Int, InputError> = out.withUnsafeMutableBytes { raw in
                do throws(InputError) {
                    return .success(
                        try pread(into: UnsafeMutableRawBufferPointer(rebasing: raw[got...]), at: from + Int64(got)))
                } catch {
                    return .failure(error)
                }
            }
            let n = try result.get()
            if n == 0 { break }
            got += n
        }
        out.removeLast(out.count - got)
        return out
    }

    /// The content from `offset` on (decompressed for a gzip file on disk; one in memory holds
    /// its content), up to `end` for a plain file (nil: to its end).
    func content(from offset: Int64, to end: Int64? = nil) throws(InputError) -> any ByteSource {
        guard compressed, case .descriptor = backing else { return LogFileSource(file: self, from: offset, to: end) }
        let gzip = try GzipSource(base: LogFileSource(file: self, from: 0, to: nil), path: path)
        return SkippingSource(base: gzip, skip: offset)
    }

    /// Whether the file still starts with the bytes its identity was taken from when opened.
    func startsAsOpened() throws(InputError) -> Bool {
        try bytes(from: 0, to: Int64(prefix.count)) == prefix
    }

    /// The current size from `fstat` of the descriptor.
    func currentSize() throws(InputError) -> Int64 {
        switch backing {
        case .descriptor(let fd):
            do {
                return try Syscalls.fstatus(fd).size
            } catch {
                throw InputError(path: path, reason: "cannot stat: \(error.description)")
            }
        case .memory(let inode): return Int64(inode.bytes.count)
        }
    }

    /// The offset just after the last `\n` in `[from, size)` of a plain file, or `from` if none
    /// (a partial last line waits for the next run; a file that shrank has none either).
    func lastLineEnd(from: Int64, size: Int64) throws(InputError) -> Int64 {
        var end = size
        while end > from {
            let start = max(from, end - Int64(64 << 10))
            let block = try bytes(from: start, to: end)
            if block.count < Int(end - start) { return from }
            if let i = block.lastIndex(of: 0x0A) { return start + Int64(i) + 1 }
            end = start
        }
        return from
    }

    private static func readPrefix(fd: Int32, path: String, compressed: Bool) throws(InputError) -> [UInt8] {
        var raw = FileRangeSource(fd: fd, path: path)
        var out = [UInt8](repeating: 0, count: FileIdentity.maxFingerprintBytes)
        let got: Int
        if compressed {
            var gzip = try GzipSource(base: raw, path: path)
            got = try ContentPrefix.fill(&gzip, &out)
        } else {
            got = try ContentPrefix.fill(&raw, &out)
        }
        out.removeLast(out.count - got)
        return out
    }
}

/// The content of a file in memory, shared by its names as an inode is: for the planner's
/// table tests, which rename, copy, truncate and append between planning and reading.
final class MemoryInode: @unchecked Sendable {
    let number: UInt64
    var bytes: [UInt8]
    /// When it was created (ns), if known.
    var born: Int64?

    init(number: UInt64, bytes: [UInt8] = [], born: Int64? = nil) {
        self.number = number
        self.bytes = bytes
        self.born = born
    }
}

/// A range of a ``LogFile``'s raw bytes as a ``ByteSource``.
struct LogFileSource: ByteSource {
    let file: LogFile
    let start: Int64
    let end: Int64?
    var position: Int64

    init(file: LogFile, from: Int64, to: Int64?) {
        self.file = file
        self.start = from
        self.end = to
        self.position = from
    }

    var consumed: Int64 { position - start }
    var fileOffset: Int64 { start }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        var want = buffer.count
        if let end { want = Int(min(Int64(want), max(0, end - position))) }
        if want == 0 { return 0 }
        let n = try file.pread(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: position)
        position += Int64(n)
        return n
    }
}
