import Glibc
import UAAuditInput

/// Turns a scan's inputs into ``WorkItem``s, one at a time, in input order.
///
/// An input is looked at only when the plan reaches it (``next()`` is called as a place in
/// the pipeline frees up), so that a backfill naming hundreds of files holds only the inputs
/// in flight open. A regular file is opened, fstat-ed and sniffed for gzip's magic here; one
/// that is uncompressed and larger than a chunk is cut at ``Chunking``'s fixed offsets and
/// gives a ``WorkItem/chunk(_:index:)`` per chunk; any other input is one
/// ``WorkItem/whole(_:)``. What is not a regular file is left for its worker to open and read
/// (opening a FIFO waits for its writer; reading a pipe waits for its data), so the plan never
/// blocks on one. The items depend on the inputs alone, never on the thread count.
///
/// Not thread-safe: ``ChunkPipeline`` calls ``next()`` under its lock.
final class WorkPlan {
    private let paths: [String]
    private let standardInput: Int32
    private let chunkBytes: Int64
    private var nextInput = 0
    /// The chunked input whose chunks are being handed out, and the next one's index.
    private var chunked: ChunkedInput?
    private var nextChunk = 0

    init(paths: [String], standardInput: Int32, chunkBytes: Int64) {
        self.paths = paths
        self.standardInput = standardInput
        self.chunkBytes = chunkBytes
    }

    /// The next item, nil when every input has been handed out.
    func next() -> WorkItem? {
        if let chunked, nextChunk < chunked.chunkCount {
            defer { nextChunk += 1 }
            return .chunk(chunked, index: nextChunk)
        }
        chunked = nil
        guard nextInput < paths.count else { return nil }
        defer { nextInput += 1 }
        return plan(paths[nextInput])
    }

    private func plan(_ path: String) -> WorkItem {
        let stdin = path == "-"
        let fd: Int32
        if stdin {
            fd = standardInput
        } else {
            // Only a regular file is opened here; anything else (a FIFO, a device, a path that
            // is not there) is opened by its worker, whose open gives the error if there is one.
            guard let status = try? Syscalls.status(path), status.isRegular else {
                return .whole(WholeInput(path: path, fd: nil, closes: true, magic: nil))
            }
            do {
                fd = try Syscalls.open(path, flags: O_RDONLY)
            } catch {
                return .unread(AuditResult.Source(path: path, error: "cannot open: \(error.description)"))
            }
        }
        let info = try? Syscalls.fstat(fd)
        guard let info, info.isRegular else {
            // Stdin from a pipe or a terminal, or a file replaced since it was looked at.
            return .whole(WholeInput(path: path, fd: fd, closes: !stdin, magic: nil))
        }
        // A regular file is read without blocking: one that would wait (/proc/kmsg) is a read
        // error, not a hang.
        if !stdin { Syscalls.setNonBlocking(fd) }
        let magic: [UInt8]
        do {
            magic = try WorkPlan.sniff(fd: fd, path: path)
        } catch {
            if !stdin { Syscalls.close(fd) }
            return .unread(AuditResult.Source(path: path, error: error.reason))
        }
        let whole = WorkItem.whole(WholeInput(path: path, fd: fd, closes: !stdin, magic: magic))
        if GzipSource<FileRangeSource>.isGzip(magic) || info.size <= chunkBytes { return whole }
        guard let bounds = try? Chunking.boundaries(fd: fd, path: path, size: info.size, chunkBytes: chunkBytes)
        else {
            // The split points could not be read: one worker reads from the start instead, so
            // the lines before the fault are counted and the report says where it stopped.
            return whole
        }
        let input = ChunkedInput(path: path, fd: fd, bounds: bounds, closes: !stdin)
        chunked = input
        nextChunk = 1
        return .chunk(input, index: 0)
    }

    /// The first two bytes of a regular file (fewer when it is shorter), read with pread(2).
    private static func sniff(fd: Int32, path: String) throws(InputError) -> [UInt8] {
        var source = FileRangeSource(fd: fd, path: path)
        return try WorkPlan.sniff(&source)
    }

    /// Reads the first (up to) two bytes of `source`, for gzip's magic.
    static func sniff(_ source: inout FileRangeSource) throws(InputError) -> [UInt8] {
        var magic = [UInt8](repeating: 0, count: 2)
        var sniffed = 0
        while sniffed < 2 {
            let start = sniffed
            let result: Result<Int, InputError> = magic.withUnsafeMutableBytes { raw in
                do throws(InputError) {
                    return .success(try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...])))
                } catch {
                    return .failure(error)
                }
            }
            let n = try result.get()
            if n == 0 { break }
            sniffed += n
        }
        magic.removeLast(2 - sniffed)
        return magic
    }
}
