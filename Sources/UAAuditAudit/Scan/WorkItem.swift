import UAAuditInput

/// One unit of a scan's work, read by one worker into one tally (``ChunkPipeline``).
///
/// Either a chunk of a large regular uncompressed file (``Chunking``'s fixed offsets), or a
/// whole input read as one stream (gzip, stdin, a pipe, anything not a regular file, a regular
/// file of at most ``ScanConfiguration/chunkBytes``), or an input that could not be read at
/// all. ``WorkPlan`` makes them, in input order, the same items for every thread count.
enum WorkItem: Sendable {
    /// Chunk `index` of an input cut into ``ChunkedInput/chunkCount`` chunks.
    case chunk(ChunkedInput, index: Int)
    /// A whole input, read from its first byte to its end as one stretch.
    case whole(WholeInput)
    /// An input the plan could not open or sniff: its source entry, error and all.
    case unread(AuditResult.Source)
}

/// A regular uncompressed file cut into chunks, open while its chunks are read and merged.
///
/// The merging thread closes it once its last chunk is absorbed (``close()``): every chunk has
/// been read by then.
final class ChunkedInput: Sendable {
    let path: String
    let fd: Int32
    /// Chunk `k` is bytes `bounds[k]..<bounds[k + 1]`.
    let bounds: [Int64]
    /// False for stdin (`-`), a regular file redirected in: the caller's descriptor stays open.
    let closes: Bool

    init(path: String, fd: Int32, bounds: [Int64], closes: Bool) {
        self.path = path
        self.fd = fd
        self.bounds = bounds
        self.closes = closes
    }

    var chunkCount: Int { bounds.count - 1 }

    func close() {
        if closes { Syscalls.close(fd) }
    }
}

/// An input read from start to end by one worker, which closes it when it is done.
struct WholeInput: Sendable {
    let path: String
    /// The open input, or nil when the worker opens it: what is not a regular file is opened
    /// by the thread that reads it (opening a FIFO waits for its writer).
    let fd: Int32?
    /// False for stdin (`-`): the caller's descriptor stays open.
    let closes: Bool
    /// Its first (up to) two bytes, when the plan read them to look for gzip's magic (a
    /// regular file, fstat-ed and set non-blocking by the plan); nil when the worker reads them.
    let magic: [UInt8]?
}
