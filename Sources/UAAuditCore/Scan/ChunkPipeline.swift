import Dispatch
import Synchronization

/// What a worker made of one chunk.
struct ChunkResult: @unchecked Sendable {
    let tally: Tally
    let failure: InputError?
    let consumed: Int64
    /// The tally held more than ``ChunkPipeline/lightBytes`` when it was read (``Tally/heldBytes``):
    /// it keeps two places in the pipeline until it is merged. Worked out once, so that the
    /// worker and the merging thread agree on it.
    let heavy: Bool
    /// When the worker finished the chunk (``DispatchTime`` uptime nanoseconds).
    var finishedAt: UInt64 = DispatchTime.now().uptimeNanoseconds

    init(tally: Tally, failure: InputError?, consumed: Int64) {
        self.tally = tally
        self.failure = failure
        self.consumed = consumed
        self.heavy = tally.heldBytes > ChunkPipeline.lightBytes
    }
}

/// Hands a file's chunks to worker threads as they become free and gives their results back
/// in file order.
///
/// Chunks are taken in file order, by whichever worker is free first (a slow or busy core does
/// not hold the others to its pace), and there are `threads + 1` places for chunks taken and not
/// yet absorbed (``release(_:)``): the merging thread absorbs chunk k while every worker reads
/// another (with `threads` places, the worker that finished chunk k waited out its merge: two
/// threads then gave 1.80× one instead of 1.90×, median of 6). A heavy tally (more than
/// ``lightBytes`` held: many distinct alert-class UAs, paths or clients) takes a second place
/// until it is merged: the worker that read it waits for that place before reading on, so
/// heavy tallies wait for their merge beside the workers' chunks no more than before (another
/// worker may take a place freed in between first; never more than `threads + 1` in all).
/// CONTRACTS bounds memory at idle + 16 MiB; a chunk of 400,000 distinct inconsistent UAs
/// holds about 3 MiB.
///
/// With one thread there are no workers: the calling thread reads each chunk when it is taken.
/// What a chunk yields depends on the chunk alone (see ``UACache/startChunk()`` and
/// ``Tally/detachFamilies()``), never on the worker that read it, and results are given back in
/// chunk order: the merged result is the same whatever the thread count and the timing.
final class ChunkPipeline: @unchecked Sendable {
    private let chunks: Int
    private let threads: Int
    private let next = Mutex(0)
    private let results: Mutex<[ChunkResult?]>
    /// One signal per chunk finished, one per chunk given back (room for another to start).
    private let finished = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore
    /// Per chunk, where a heavy tally's second place stands (``SecondPlace``): the worker takes
    /// it after giving the result, the merging thread gives it back, in either order.
    private let second: Mutex<[SecondPlace]>
    private let group = DispatchGroup()

    private enum SecondPlace {
        case none, waiting, held, merged, mergedWhileWaiting
    }
    /// With one thread: the reader, run by ``take(_:)`` on the calling thread.
    private var readHere: (@Sendable (_ worker: Int, _ chunk: Int) -> ChunkResult)?

    /// The most a tally may hold and still take only one place (see ``ChunkResult/heavy``).
    static let lightBytes = 1 << 20

    init(chunks: Int, threads: Int) {
        self.chunks = chunks
        self.threads = max(1, min(threads, chunks))
        self.results = Mutex(Array(repeating: nil, count: chunks))
        self.second = Mutex(Array(repeating: .none, count: chunks))
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
                    let heavy = result.heavy
                    results.withLock { $0[chunk] = result }
                    finished.signal()
                    // A heavy tally's second place, given back with its first when it is merged;
                    // not taken when it was merged first (its place would be given back twice).
                    if heavy { takeSecondPlace(chunk) }
                }
            }
        }
    }

    /// The result of `chunk`, waiting for it; call for 0, 1, 2, … in order, and ``release(_:)``
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

    /// Says a taken result has been absorbed (its tally may go): another chunk may start (two,
    /// when it was heavy and its worker had taken its second place).
    func release(_ result: ChunkResult, chunk: Int) {
        if readHere != nil { return }
        room.signal()
        guard result.heavy else { return }
        let held = second.withLock { places -> Bool in
            switch places[chunk] {
            case .held: return true
            case .waiting: places[chunk] = .mergedWhileWaiting
            default: places[chunk] = .merged
            }
            return false
        }
        if held { room.signal() }
    }

    /// The worker's side of a heavy tally's second place (see ``release(_:chunk:)``).
    private func takeSecondPlace(_ chunk: Int) {
        let wait = second.withLock { places -> Bool in
            guard places[chunk] == .none else { return false }  // merged already
            places[chunk] = .waiting
            return true
        }
        guard wait else { return }
        room.wait()
        let giveBack = second.withLock { places -> Bool in
            guard places[chunk] == .waiting else { return true }  // merged while it waited
            places[chunk] = .held
            return false
        }
        if giveBack { room.signal() }
    }

    /// Waits for the workers to stop (every chunk has been taken).
    func finish() {
        group.wait()
    }
}
