import Dispatch
import Synchronization

/// What a worker made of one chunk.
struct ChunkResult: @unchecked Sendable {
    let tally: Tally
    let failure: InputError?
    let consumed: Int64
    /// When the worker finished the chunk (``DispatchTime`` uptime nanoseconds).
    var finishedAt: UInt64 = DispatchTime.now().uptimeNanoseconds
}

/// Hands a file's chunks to worker threads as they become free and gives their results back
/// in file order.
///
/// Chunks are taken in file order, by whichever worker is free first (a slow or busy core does
/// not hold the others to its pace), and at most `threads + 1` are taken and not yet absorbed
/// (``release()``): the merging thread absorbs chunk k while every worker reads another (with
/// `threads` only, the worker that finished chunk k waited out its merge: two threads then
/// gave 1.80× one instead of 1.90×, median of 6), and memory holds at most `threads + 1`
/// tallies (CONTRACTS: idle + 16 MiB). With one thread
/// there are no workers: the calling thread reads each chunk when it is taken. What a chunk yields depends on the chunk alone (see
/// ``UACache/startChunk()`` and ``Tally/detachFamilies()``), never on the worker that read
/// it, and results are given back in chunk order: the merged result is the same whatever the
/// thread count and the timing.
final class ChunkPipeline: @unchecked Sendable {
    private let chunks: Int
    private let threads: Int
    private let next = Mutex(0)
    private let results: Mutex<[ChunkResult?]>
    /// One signal per chunk finished, one per chunk given back (room for another to start).
    private let finished = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore
    private let group = DispatchGroup()
    /// With one thread: the reader, run by ``take(_:)`` on the calling thread.
    private var readHere: (@Sendable (_ worker: Int, _ chunk: Int) -> ChunkResult)?

    init(chunks: Int, threads: Int) {
        self.chunks = chunks
        self.threads = max(1, min(threads, chunks))
        self.results = Mutex(Array(repeating: nil, count: chunks))
        self.room = DispatchSemaphore(value: self.threads + 1)
    }

    /// Starts the workers: `read(worker, chunk)` runs on worker `worker`'s own thread only.
    func start(_ read: @escaping @Sendable (_ worker: Int, _ chunk: Int) -> ChunkResult) {
        if threads == 1 {
            readHere = read
            return
        }
        for worker in 0..<threads {
            DispatchQueue.global().async(group: group) { [self] in
                while true {
                    room.wait()
                    let chunk = next.withLock { n in
                        defer { n += 1 }
                        return n
                    }
                    if chunk >= chunks {
                        room.signal()
                        break
                    }
                    let result = read(worker, chunk)
                    results.withLock { $0[chunk] = result }
                    finished.signal()
                }
            }
        }
    }

    /// The result of `chunk`, waiting for it; call for 0, 1, 2, … in order, and ``release()``
    /// once it is absorbed.
    func take(_ chunk: Int) -> ChunkResult {
        if let readHere { return readHere(0, chunk) }
        while true {
            if let result = results.withLock({ slots -> ChunkResult? in
                defer { slots[chunk] = nil }
                return slots[chunk]
            }) {
                return result
            }
            finished.wait()
        }
    }

    /// Says a taken result has been absorbed (its tally may go): another chunk may start.
    func release() {
        if readHere != nil { return }
        room.signal()
    }

    /// Waits for the workers to stop (every chunk has been taken).
    func finish() {
        group.wait()
    }
}
