import Dispatch
import Synchronization
import UAAuditInput

/// What a worker made of one work item (``WorkItem``).
struct ChunkResult: @unchecked Sendable {
    /// Nil when nothing was read (an input that could not be opened, sniffed or inflated).
    let tally: Tally?
    let failure: InputError?
    let consumed: Int64
    /// A whole input's entry in the report's sources, complete (an input read as one stream,
    /// or one that could not be read); nil for a chunk, whose input's entry the merging thread
    /// adds up chunk by chunk.
    let source: AuditResult.Source?
    /// The tally held more than ``lightBytes`` when it was read (``Tally/heldBytes``):
    /// it keeps two places in the pipeline until it is merged. Worked out once, so that the
    /// worker and the merging thread agree on it.
    let heavy: Bool
    /// When the worker finished the item (``DispatchTime`` uptime nanoseconds).
    var finishedAt: UInt64 = DispatchTime.now().uptimeNanoseconds

    init(tally: Tally?, failure: InputError?, consumed: Int64, source: AuditResult.Source? = nil) {
        self.tally = tally
        self.failure = failure
        self.consumed = consumed
        self.source = source
        self.heavy = (tally?.heldBytes ?? 0) > ChunkResult.lightBytes
    }

    /// The most a tally may hold and still take only one place in the pipeline.
    static let lightBytes = 1 << 20
}

/// Hands a scan's work items (``WorkItem``: chunks of large plain files, whole gzip files,
/// stdin, pipes, small files) to worker threads as they become free, and gives their results
/// back in item order.
///
/// Items are taken in order, by whichever worker is free first (a slow or busy core does not
/// hold the others to its pace): the worker that takes the next place asks the plan for the
/// next item (``WorkPlan``, under this pipeline's lock), so inputs are opened only as the scan
/// reaches them. There are `threads + 1` places for items taken and not yet absorbed
/// (``release(_:index:)``): the merging thread absorbs item k while every worker reads another
/// (with `threads` places, the worker that finished item k waited out its merge: two threads
/// then gave 1.80× one instead of 1.90×, median of 6). A heavy tally (more than
/// ``ChunkResult/lightBytes`` held: many distinct alert-class UAs, paths or clients) takes a
/// second place until it is merged: the worker that read it waits for that place before
/// reading on, so heavy tallies wait for their merge beside the workers' items no more than
/// before (another worker may take a place freed in between first; never more than
/// `threads + 1` in all). CONTRACTS bounds memory at idle + 16 MiB; a chunk of 400,000
/// distinct inconsistent UAs holds about 3 MiB. A whole input's tally is bounded the same way
/// (its tables have the same fixed bounds; only its hour counters grow with the hours it
/// spans), and a gzip item adds its zlib stream and 256 KiB of compressed input while it is
/// read: several `.gz` files are so read side by side, one per worker, the only way past one
/// core's inflate speed.
///
/// With one thread there are no workers: the calling thread plans and reads each item when it
/// is taken. What an item yields depends on the item alone (see ``UACache/startChunk()`` and
/// ``Tally/detachFamilies()``), never on the worker that read it; the items are the same for
/// every thread count, and results are given back in item order: the merged result is the same
/// whatever the thread count and the timing.
final class ChunkPipeline<Item: Sendable>: @unchecked Sendable {
    private let threads: Int
    /// The next item's index, and the number of items once the plan has run out.
    private let planned = Mutex((next: 0, count: Int?.none))
    /// Called only under ``planned``'s lock.
    private var plan: (() -> Item?)?
    private let results = Mutex([Int: (Item, ChunkResult)]())
    /// One signal per item finished (and one when the plan runs out), one per item given back
    /// (room for another to start).
    private let finished = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore
    /// Per item, where a heavy tally's second place stands (``SecondPlace``): the worker takes
    /// it after giving the result, the merging thread gives it back, in either order. An entry
    /// goes when the place is given back.
    private let second = Mutex([Int: SecondPlace]())
    private let group = DispatchGroup()

    private enum SecondPlace {
        case waiting, held, merged, mergedWhileWaiting
    }
    /// With one thread: the reader, run by ``take(_:)`` on the calling thread.
    private var readHere: (@Sendable (_ worker: Int, _ item: Item) -> ChunkResult)?

    init(threads: Int) {
        self.threads = max(1, threads)
        self.room = DispatchSemaphore(value: self.threads + 1)
    }

    /// Starts the workers: `plan()` gives the items in order (nil: no more), called by one
    /// thread at a time; `read(worker, item)` runs on worker `worker`'s own thread only.
    func start(plan: @escaping () -> Item?, read: @escaping @Sendable (_ worker: Int, _ item: Item) -> ChunkResult) {
        self.plan = plan
        if threads == 1 {
            readHere = read
            return
        }
        for worker in 0..<threads {
            DispatchQueue.global().async(group: group) { [self] in
                while true {
                    room.wait()
                    guard let (index, item) = nextItem() else {
                        room.signal()
                        finished.signal()  // the merging thread may be waiting for an item past the last
                        break
                    }
                    let result = read(worker, item)
                    let heavy = result.heavy
                    results.withLock { $0[index] = (item, result) }
                    finished.signal()
                    // A heavy tally's second place, given back with its first when it is merged;
                    // not taken when it was merged first (its place would be given back twice).
                    if heavy { takeSecondPlace(index) }
                }
            }
        }
    }

    /// The next item from the plan and its index; nil once the plan has run out.
    private func nextItem() -> (Int, Item)? {
        planned.withLock { state -> (Int, Item)? in
            guard state.count == nil else { return nil }
            guard let item = plan?() else {
                state.count = state.next
                return nil
            }
            defer { state.next += 1 }
            return (state.next, item)
        }
    }

    /// Item `index` and its result, waiting for it; nil when the plan had fewer items. Call
    /// for 0, 1, 2, … in order, and ``release(_:index:)`` once it is absorbed.
    func take(_ index: Int) -> (Item, ChunkResult)? {
        if let readHere {
            guard let (_, item) = nextItem() else { return nil }
            return (item, readHere(0, item))
        }
        while true {
            if let taken = results.withLock({ $0.removeValue(forKey: index) }) { return taken }
            if let count = planned.withLock({ $0.count }), index >= count { return nil }
            finished.wait()
        }
    }

    /// Says a taken result has been absorbed (its tally may go): another item may start (two,
    /// when it was heavy and its worker had taken its second place).
    func release(_ result: ChunkResult, index: Int) {
        if readHere != nil { return }
        room.signal()
        guard result.heavy else { return }
        let held = second.withLock { places -> Bool in
            switch places[index] {
            case .held:
                places[index] = nil
                return true
            case .waiting: places[index] = .mergedWhileWaiting
            default: places[index] = .merged
            }
            return false
        }
        if held { room.signal() }
    }

    /// The worker's side of a heavy tally's second place (see ``release(_:index:)``).
    private func takeSecondPlace(_ index: Int) {
        let wait = second.withLock { places -> Bool in
            guard places[index] == nil else {  // merged already
                places[index] = nil
                return false
            }
            places[index] = .waiting
            return true
        }
        guard wait else { return }
        room.wait()
        let giveBack = second.withLock { places -> Bool in
            guard places[index] == .waiting else {  // merged while it waited
                places[index] = nil
                return true
            }
            places[index] = .held
            return false
        }
        if giveBack { room.signal() }
    }

    /// Waits for the workers to stop (every item has been taken).
    func finish() {
        group.wait()
    }
}
