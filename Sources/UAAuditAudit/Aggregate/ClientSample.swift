import CUAScan
import UAAuditInput

/// Which clients of each hour bucket were seen with an app class and with the alert class, in
/// memory allocated once: the hot-path half of the split-identity figures (see ``ClientSet``).
///
/// A client is its key field's bytes as logged, remembered by a 64-bit hash. While the table has
/// room every client is kept (exact). When it is full, the bucket with the most clients halves
/// its sampling rate: it then keeps only the clients whose hash has one more leading zero bit,
/// so what remains is a uniform sample of its clients (all of a kept client's requests count,
/// none of a dropped one's). Counts scaled by 2^level estimate the true ones.
///
/// Entries live in the slots themselves, 8 bytes each (the hash's top 44 bits, the bucket in 18
/// bits, the mask in 2; 0 is an empty slot), at most half the slots used: a lookup touches one
/// cache line, and the 131,072-client table is at most 2 MiB (it starts at 64 KiB and doubles as
/// clients come). Two clients share an entry only if their
/// hashes agree in 44 bits (for 131,072 clients, about one chance in 2,000 that any pair does).
///
/// A client's slot is its hash's leading bits after the bucket's sampling-level bits (which are
/// 0 in every hash it keeps), turned by an offset per bucket: so the slots hold each bucket's
/// clients nearly in hash order, and ``finish()``, run by the worker at the end of its chunk,
/// sorts them per bucket in two linear passes. The hours' sets then merge each bucket's run
/// in one linear pass (``ClientSet/add(sortedRun:level:)``) on the merging thread.
///
/// The hash is unseeded, so clients can be crafted whose hashes share their leading bits and
/// whose slots therefore pile up at one place. A client is looked for at most ``maxProbe``
/// slots from its home: one that finds them all taken (none of them its own) goes to a side
/// table placed by a mix of the hash with a seed drawn per process, which ``finish()`` sorts
/// and merges into the bucket's run. So a pile costs each of its clients ``maxProbe`` slots
/// and a side-table lookup, not a probe past every earlier one, and only its hour pays a sort.
/// Where a client sits never changes which clients are kept, only the order of the work.
package final class ClientSample {
    /// Mask bits: seen with an app class, seen with the alert class.
    package static let app: UInt8 = 1
    package static let alert: UInt8 = 2
    package static let split: UInt8 = 3
    package static let examplesPerHour = 3
    static let maxExampleBytes = 128

    /// The hash bits an entry keeps (the top 44; the sampling level reads the top bits).
    package static let hashMask: UInt64 = ~((1 << 20) - 1)
    /// Buckets from this one on are not counted (2^18 hours: thirty years in one chunk).
    static let maxBuckets = 1 << 18

    /// The most slots a client is looked for from its home before the side table.
    static let maxProbe = 32

    let maxEntries: Int
    var count: Int { state.pointee.count }
    /// Key bytes (as logged) of the first split clients of each bucket.
    private(set) var examples: [Int: [[UInt8]]] = [:]

    /// The most slots the table grows to: twice `maxEntries`, rounded up to a power of two.
    private let maxSlots: Int
    /// The slots a table starts with when no spare one is at hand.
    static let initialSlots = 8_192
    /// What changes per request, behind a pointer: a class's stored `var` costs a dynamic
    /// exclusivity check on every access.
    private struct State {
        /// The table, until ``finish()`` frees it. It starts small and doubles whenever it would
        /// be more than half full, up to ``maxSlots``: a chunk's clients (often a few thousand)
        /// then fit in a core's cache, where every request looks one up at a random place.
        var slots: UnsafeMutablePointer<UInt64>
        var slotMask: Int
        /// 64 minus the slot index's bits: a hash's leading bits, shifted down by this, are its home.
        var homeShift: UInt64
        /// After ``finish()``: the entries, by bucket, each bucket's ascending; and where each
        /// bucket's run starts (`bucketCount + 1` offsets).
        var runs: UnsafeMutablePointer<UInt64>? = nil
        var runStarts: [Int] = []
        var count = 0
        /// Per bucket: the sampling level (it keeps the clients whose hash's top `level` bits
        /// are 0), and how many entries it has.
        var levelOf: UnsafeMutablePointer<Int32>
        var entriesOf: UnsafeMutablePointer<Int32>
        var bucketCapacity = 64
        var bucketCount = 0
        /// Per bucket: the level its slots are placed at (see ``home(_:level:)``). It follows the
        /// sampling level when thinning drops entries; a raise that drops none leaves the
        /// entries where they are, placed at the level they were placed at.
        var placeLevelOf: UnsafeMutablePointer<Int32>
        /// The clients whose ``maxProbe`` slots were all taken: open addressing by a seeded mix,
        /// at most half full; nil until the first one.
        var side: UnsafeMutablePointer<UInt64>? = nil
        var sideMask = 0
        var sideCount = 0
        /// Slots and side-table places looked at, for tests: bounded work under crafted keys.
        var work = 0
        /// Per bucket, after a thinning that dropped no entry: the fewest leading zero bits of its
        /// entries' hashes (those the next raise would drop have fewer than its level). The
        /// entries cannot change until a thinning drops some (the table stays full), so the
        /// thinnings in between need not look at the table again; empty when not known.
        var fewestZeros: [Int] = []
    }
    private let state: UnsafeMutablePointer<State>
    var bucketCount: Int { state.pointee.bucketCount }

    private let pool: Pool?

    /// A table of up to `maxEntries` clients, starting with the spare table of `pool` when it
    /// has one (the size the last chunk grew to; given back to it, empty, by ``finish()``).
    init(maxEntries: Int, pool: Pool? = nil) {
        self.maxEntries = max(maxEntries, 2)
        var maxSlots = 16
        while maxSlots < self.maxEntries * 2 { maxSlots <<= 1 }
        self.maxSlots = maxSlots
        self.pool = pool
        let slots: UnsafeMutablePointer<UInt64>
        var slotCount = min(maxSlots, ClientSample.initialSlots)
        if let spare = pool?.take(maxSlotCount: maxSlots) {
            (slots, slotCount) = spare
        } else {
            slots = Self.emptyTable(slotCount)
        }
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                slots: slots, slotMask: slotCount - 1, homeShift: UInt64(64 - slotCount.trailingZeroBitCount),
                levelOf: .allocate(capacity: 64), entriesOf: .allocate(capacity: 64),
                placeLevelOf: .allocate(capacity: 64)))
    }

    private static func emptyTable(_ slotCount: Int) -> UnsafeMutablePointer<UInt64> {
        let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
        return slots
    }

    /// The slots the table has now (it grows up to twice `maxEntries`).
    var slotCount: Int { state.pointee.slotMask + 1 }

    /// True when one more entry would fill more than half of a table that can still grow.
    @inline(__always)
    private var mustGrow: Bool {
        let slots = state.pointee.slotMask + 1
        return (state.pointee.count + 1) * 2 > slots && slots < maxSlots
    }

    /// Doubles the table and places every entry (of the slots and the side table) again: where
    /// a client sits never changes which clients are kept.
    private func grow() {
        let old = state.pointee.slots
        let oldSlots = state.pointee.slotMask + 1
        var entries: [UInt64] = []
        entries.reserveCapacity(count)
        for i in 0..<oldSlots where old[i] != 0 { entries.append(old[i]) }
        if let side = state.pointee.side {
            for i in 0...state.pointee.sideMask where side[i] != 0 { entries.append(side[i]) }
            side.deallocate()
            state.pointee.side = nil
            state.pointee.sideCount = 0
        }
        old.deallocate()
        let slotCount = oldSlots * 2
        state.pointee.slots = Self.emptyTable(slotCount)
        state.pointee.slotMask = slotCount - 1
        state.pointee.homeShift = UInt64(64 - slotCount.trailingZeroBitCount)
        state.pointee.work &+= oldSlots
        for e in entries { place(e) }
    }

    deinit {
        if let runs = state.pointee.runs { runs.deallocate() } else { state.pointee.slots.deallocate() }
        state.pointee.levelOf.deallocate()
        state.pointee.entriesOf.deallocate()
        state.pointee.placeLevelOf.deallocate()
        state.pointee.side?.deallocate()
        state.deallocate()
    }

    /// True when a client of this hash is kept at `level`.
    @inline(__always)
    static func keeps(_ hash: UInt64, level: Int) -> Bool {
        level == 0 || (level < 64 && hash >> UInt64(64 - level) == 0)
    }

    /// How many entries `bucket` has (0 for a bucket never seen).
    func entries(of bucket: Int) -> Int { bucket < bucketCount ? Int(state.pointee.entriesOf[bucket]) : 0 }

    /// The sampling level of `bucket` (0 for a bucket never seen).
    func level(of bucket: Int) -> Int { bucket < bucketCount ? Int(state.pointee.levelOf[bucket]) : 0 }

    /// Slots and side-table places looked at so far (tests bound it under crafted keys).
    var work: Int { state.pointee.work }

    /// How many entries are in the side table (those whose ``maxProbe`` slots were taken).
    var sideCount: Int { state.pointee.sideCount }

    /// Notes that the client whose key field is `key` made a request of kind `bits` in `bucket`.
    @inline(__always)
    func note(bucket: Int, key: UnsafeRawBufferPointer, bits: UInt8) {
        note(bucket: bucket, hash: ByteHash.hash(key), key: key, bits: bits)
    }

    /// ``note(bucket:key:bits:)`` with the key's hash given (tests craft hashes with it).
    /// The per-line path is ``Noter/note(bucket:hash:key:bits:home:)``, which gives the same
    /// table.
    @inline(__always)
    func note(bucket: Int, hash: UInt64, key: UnsafeRawBufferPointer, bits: UInt8) {
        guard bucket < ClientSample.maxBuckets else { return }
        if bucket >= bucketCount { addBuckets(through: bucket) }
        let level = Int(state.pointee.levelOf[bucket])
        guard ClientSample.keeps(hash, level: level) else { return }
        let identity = hash & ClientSample.hashMask | UInt64(bucket) << 2
        let start = home(identity, level: Int(state.pointee.placeLevelOf[bucket]))
        let (slot, found, probes) = Self.probe(state, identity: identity, home: start)
        state.pointee.work &+= probes
        if found {
            Self.add(bits, at: slot, state: state, bucket: bucket, key: key, sample: .passUnretained(self))
            return
        }
        if slot < 0 {
            noteInSide(bucket: bucket, hash: hash, identity: identity, key: key, bits: bits)
            return
        }
        if state.pointee.count == maxEntries || mustGrow {
            makeRoomAndNote(bucket: bucket, hash: hash, key: key, bits: bits)
            return
        }
        state.pointee.count += 1
        state.pointee.slots[slot] = identity | UInt64(bits)
        state.pointee.entriesOf[bucket] += 1
    }

    /// The probe for `identity` from `home`: the slot that holds it (`found`), else the first
    /// empty one, or -1 when ``maxProbe`` slots all hold others; and how many slots it looked at.
    @inline(__always)
    private static func probe(_ state: UnsafeMutablePointer<State>, identity: UInt64, home: Int) -> (
        slot: Int, found: Bool, probes: Int
    ) {
        let slots = state.pointee.slots
        var slot = home
        var probes = 1
        while true {
            let s = slots[slot]
            if s == 0 { return (slot, false, probes) }
            if s & ~3 == identity { return (slot, true, probes) }
            if probes == ClientSample.maxProbe { return (-1, false, probes) }
            probes &+= 1
            slot = (slot &+ 1) & state.pointee.slotMask
        }
    }

    /// Adds `bits` to the entry a probe found in `slot`, keeping the client's key as an example
    /// of its bucket when that makes it split.
    @inline(__always)
    private static func add(
        _ bits: UInt8, at slot: Int, state: UnsafeMutablePointer<State>, bucket: Int, key: UnsafeRawBufferPointer,
        sample: Unmanaged<ClientSample>
    ) {
        let s = state.pointee.slots[slot]
        let now = s | UInt64(bits)
        guard now != s else { return }
        state.pointee.slots[slot] = now
        if now & 3 == UInt64(ClientSample.split) {
            sample._withUnsafeGuaranteedRef { $0.keepExample(bucket: bucket, key: key) }
        }
    }

    /// Makes room for a client not in the table, then notes it again: a full table is thinned,
    /// one that would be more than half full grows.
    @inline(never)
    private func makeRoomAndNote(bucket: Int, hash: UInt64, key: UnsafeRawBufferPointer, bits: UInt8) {
        if state.pointee.count == maxEntries { thin() } else { grow() }
        note(bucket: bucket, hash: hash, key: key, bits: bits)
    }

    /// The rest of ``note(bucket:hash:key:bits:)`` for a client whose ``maxProbe`` slots are all
    /// taken by others: it is in the side table if anywhere (slots are only emptied by thinning,
    /// which places every entry again).
    private func noteInSide(bucket: Int, hash: UInt64, identity: UInt64, key: UnsafeRawBufferPointer, bits: UInt8) {
        if let side = state.pointee.side {
            var place = sidePlace(identity)
            while true {
                state.pointee.work &+= 1
                let s = side[place]
                if s == 0 { break }
                if s & ~3 == identity {
                    if s | UInt64(bits) != s {
                        side[place] = s | UInt64(bits)
                        if (s | UInt64(bits)) & 3 == UInt64(ClientSample.split) {
                            keepExample(bucket: bucket, key: key)
                        }
                    }
                    return
                }
                place = (place + 1) & state.pointee.sideMask
            }
        }
        if state.pointee.count == maxEntries || mustGrow {
            makeRoomAndNote(bucket: bucket, hash: hash, key: key, bits: bits)
            return
        }
        state.pointee.count += 1
        state.pointee.entriesOf[bucket] += 1
        addToSide(identity | UInt64(bits))
    }

    /// The side table's seed: drawn once per process, so that no one can craft clients that
    /// pile up there (where a client sits never changes a result).
    private static let sideSeed = UInt64.random(in: 0...UInt64.max)

    @inline(__always)
    private func sidePlace(_ entry: UInt64) -> Int {
        var z = (entry & ~3) ^ ClientSample.sideSeed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: z ^ (z >> 31)) & state.pointee.sideMask
    }

    /// Puts an entry known to be absent into the side table, growing it to stay half empty.
    private func addToSide(_ entry: UInt64) {
        if state.pointee.side == nil || (state.pointee.sideCount + 1) * 2 > state.pointee.sideMask + 1 {
            let old = state.pointee.side
            let oldCount = old == nil ? 0 : state.pointee.sideMask + 1
            let capacity = max(64, oldCount * 2)
            let side = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
            side.initialize(repeating: 0, count: capacity)
            state.pointee.side = side
            state.pointee.sideMask = capacity - 1
            state.pointee.sideCount = 0
            if let old {
                for i in 0..<oldCount where old[i] != 0 { addToSide(old[i]) }
                old.deallocate()
            }
        }
        let side = state.pointee.side!
        var place = sidePlace(entry)
        while side[place] != 0 {
            state.pointee.work &+= 1
            place = (place + 1) & state.pointee.sideMask
        }
        side[place] = entry
        state.pointee.sideCount += 1
    }

    /// Places an entry known to be absent: within ``maxProbe`` slots of its home, else in the
    /// side table.
    private func place(_ entry: UInt64) {
        let slots = state.pointee.slots
        var slot = home(entry, level: Int(state.pointee.placeLevelOf[Self.bucket(entry)]))
        for _ in 0..<ClientSample.maxProbe {
            state.pointee.work &+= 1
            if slots[slot] == 0 {
                slots[slot] = entry
                return
            }
            slot = (slot + 1) & state.pointee.slotMask
        }
        addToSide(entry)
    }

    /// Calls `body` with each entry: its bucket, hash (its kept bits) and mask; after
    /// ``finish()`` by bucket, then by ascending hash.
    func forEachEntry(_ body: (_ bucket: Int, _ hash: UInt64, _ mask: UInt8) -> Void) {
        func call(_ s: UInt64) { body(Self.bucket(s), s & Self.hashMask, UInt8(s & 3)) }
        if let runs = state.pointee.runs {
            for i in 0..<count { call(runs[i]) }
        } else {
            let slots = state.pointee.slots
            for i in 0...state.pointee.slotMask where slots[i] != 0 { call(slots[i]) }
            if let side = state.pointee.side {
                for i in 0...state.pointee.sideMask where side[i] != 0 { call(side[i]) }
            }
        }
    }

    @inline(__always)
    static func bucket(_ slot: UInt64) -> Int { Int((slot & ~hashMask) >> 2) }

    /// Where a bucket's clients start in the table (its home slots turned by this much).
    @inline(__always)
    private func offset(of bucket: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bucket) &* 0x9E37_79B9_7F4A_7C15) >> 32) & state.pointee.slotMask
    }

    /// Where an entry of a bucket at `level` starts probing: its hash's leading bits after the
    /// `level` that are 0 (ascending with the hash), turned by the bucket's offset.
    @inline(__always)
    private func home(_ entry: UInt64, level: Int) -> Int {
        let bits = (entry & ClientSample.hashMask) &<< UInt64(truncatingIfNeeded: level)
        return (Int(truncatingIfNeeded: bits &>> state.pointee.homeShift) &+ offset(of: Self.bucket(entry)))
            & state.pointee.slotMask
    }

    /// Ends the noting: sorts the entries into one ascending run per bucket, in bucket order,
    /// and frees the table. The worker calls it at the end of its chunk, so that the merging
    /// thread merges each run in one pass; called again, it does nothing.
    ///
    /// One pass over the table moves each entry to its bucket's run: those in slots from the
    /// bucket's offset on to the front part, in slot order, and those before it (the bucket's
    /// highest homes, turned past the table's end) to the back part, from its end; the back part
    /// is then reversed. That is the order of their homes, but for neighbours that probing left
    /// a few places out of order (and, rarely, the few a probe carried past the table's end),
    /// which an insertion sort puts right. A bucket with entries in the side table has them
    /// sorted and merged in from the run's end.
    func finish() {
        guard state.pointee.runs == nil else { return }
        let total = count
        let buckets = bucketCount
        let slots = state.pointee.slots
        let runs = UnsafeMutablePointer<UInt64>.allocate(capacity: max(total, 1))
        var starts = [Int](repeating: 0, count: buckets + 1)
        // Per bucket: where its front part's next entry goes, and where its back part begins.
        let front = UnsafeMutablePointer<Int>.allocate(capacity: max(buckets, 1) * 2)
        let back = front + max(buckets, 1)
        defer { front.deallocate() }
        // The side table's entries, by bucket (`sideStarts`), each bucket's sorted.
        var sideStarts = [Int](repeating: 0, count: buckets + 1)
        var extra: [UInt64] = []
        if let side = state.pointee.side {
            for i in 0...state.pointee.sideMask where side[i] != 0 { sideStarts[Self.bucket(side[i]) + 1] += 1 }
            for b in 0..<buckets { sideStarts[b + 1] += sideStarts[b] }
            var next = sideStarts
            extra = [UInt64](repeating: 0, count: state.pointee.sideCount)
            for i in 0...state.pointee.sideMask where side[i] != 0 {
                let b = Self.bucket(side[i])
                extra[next[b]] = side[i]
                next[b] += 1
            }
            side.deallocate()
            state.pointee.side = nil
            state.pointee.sideCount = 0
            for b in 0..<buckets where sideStarts[b + 1] - sideStarts[b] > 1 {
                extra[sideStarts[b]..<sideStarts[b + 1]].sort()
            }
        }
        for b in 0..<buckets {
            starts[b + 1] = starts[b] + Int(state.pointee.entriesOf[b])
            front[b] = starts[b]
            back[b] = starts[b + 1] - (sideStarts[b + 1] - sideStarts[b])
        }
        // The runs are written through raw pointers: the buckets' counts must add up to the table's.
        precondition(starts[buckets] == total, "client sample: bucket entries do not add up")
        if total > 0 {
            for i in 0...state.pointee.slotMask {
                let s = slots[i]
                if s == 0 { continue }
                slots[i] = 0  // the table goes back to the pool empty
                let b = Self.bucket(s)
                if i < offset(of: b) {
                    back[b] &-= 1
                    runs[back[b]] = s
                } else {
                    runs[front[b]] = s
                    front[b] &+= 1
                }
            }
        }
        for b in 0..<buckets {
            let sideEntries = sideStarts[b + 1] - sideStarts[b]
            let mainEnd = starts[b + 1] - sideEntries
            var (low, high) = (back[b], mainEnd - 1)
            while low < high {
                (runs[low], runs[high]) = (runs[high], runs[low])
                (low, high) = (low + 1, high - 1)
            }
            Self.insertionSort(runs, from: starts[b], to: mainEnd)
            guard sideEntries > 0 else { continue }
            // Merge the sorted side entries in from the end: the slots' run is at the front.
            var (i, j, w) = (mainEnd - 1, sideStarts[b + 1] - 1, starts[b + 1] - 1)
            while j >= sideStarts[b] {
                if i >= starts[b] && runs[i] > extra[j] {
                    runs[w] = runs[i]
                    i -= 1
                } else {
                    runs[w] = extra[j]
                    j -= 1
                }
                w -= 1
            }
        }
        if let pool { pool.give(slots, slotCount: state.pointee.slotMask + 1) } else { slots.deallocate() }
        state.pointee.runs = runs
        state.pointee.runStarts = starts
    }

    /// Sorts `runs[from..<to]`, nearly sorted, in place; a run far from sorted (more moves than
    /// a few per entry) is sorted outright instead.
    private static func insertionSort(_ runs: UnsafeMutablePointer<UInt64>, from: Int, to: Int) {
        var moves = 0
        let budget = 16 * (to - from) + 1_024
        var j = from + 1
        while j < to {
            let v = runs[j]
            var k = j
            while k > from && runs[k - 1] > v {
                runs[k] = runs[k - 1]
                k -= 1
            }
            runs[k] = v
            moves += j - k
            if moves > budget {
                var all = UnsafeMutableBufferPointer(start: runs + from, count: to - from)
                all.sort()
                return
            }
            j += 1
        }
    }

    /// The ascending entries of `bucket` (packed as the slots hold them), once ``finish()`` has
    /// run; valid while this sample lives.
    func run(of bucket: Int) -> UnsafeBufferPointer<UInt64> {
        guard let runs = state.pointee.runs, bucket < bucketCount else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        let starts = state.pointee.runStarts
        return UnsafeBufferPointer(start: runs + starts[bucket], count: starts[bucket + 1] - starts[bucket])
    }

    private func addBuckets(through bucket: Int) {
        let bucketCount = state.pointee.bucketCount
        if bucket >= state.pointee.bucketCapacity {
            var capacity = state.pointee.bucketCapacity
            while capacity <= bucket { capacity *= 2 }
            for table in [\State.levelOf, \State.entriesOf, \State.placeLevelOf] {
                let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
                bigger.update(from: state.pointee[keyPath: table], count: bucketCount)
                state.pointee[keyPath: table].deallocate()
                state.pointee[keyPath: table] = bigger
            }
            state.pointee.bucketCapacity = capacity
        }
        (state.pointee.levelOf + bucketCount).initialize(repeating: 0, count: bucket + 1 - bucketCount)
        (state.pointee.entriesOf + bucketCount).initialize(repeating: 0, count: bucket + 1 - bucketCount)
        (state.pointee.placeLevelOf + bucketCount).initialize(repeating: 0, count: bucket + 1 - bucketCount)
        state.pointee.bucketCount = bucket + 1
    }

    @inline(never)
    private func keepExample(bucket: Int, key: UnsafeRawBufferPointer) {
        if examples[bucket, default: []].count < ClientSample.examplesPerHour {
            examples[bucket, default: []].append(Array(key.prefix(ClientSample.maxExampleBytes)))
        }
    }

    /// Makes room: halves the sampling rate of the bucket with the most clients, again and again
    /// (each halving about halves its entries) until the table would be at most three quarters
    /// full, then drops in one pass the clients the new levels no longer keep and places the
    /// others again, at the new levels. When the new levels drop no client (their hashes share
    /// the leading bits: crafted keys), the entries stay where they are, at the levels they
    /// were placed at, and the caller thins again if its client is still kept.
    private func thin() {
        let levelOf = state.pointee.levelOf
        let entriesOf = state.pointee.entriesOf
        var estimate = (0..<bucketCount).map { Int(entriesOf[$0]) }
        var total = count
        repeat {
            var bucket = 0
            for b in estimate.indices where estimate[b] > estimate[bucket] { bucket = b }
            levelOf[bucket] += 1
            total -= estimate[bucket] - estimate[bucket] / 2
            estimate[bucket] /= 2
        } while total > maxEntries * 3 / 4 && estimate.contains { $0 > 0 }
        let slots = state.pointee.slots
        let side = state.pointee.side
        let sideSlots = side == nil ? 0 : state.pointee.sideMask + 1
        func isKept(_ s: UInt64) -> Bool { ClientSample.keeps(s & Self.hashMask, level: Int(levelOf[Self.bucket(s)])) }
        if state.pointee.fewestZeros.isEmpty {
            state.pointee.work &+= state.pointee.slotMask + 1 + sideSlots
            var fewest = [Int](repeating: 65, count: bucketCount)  // 65: no entry
            for i in 0...state.pointee.slotMask where slots[i] != 0 {
                let b = Self.bucket(slots[i])
                fewest[b] = min(fewest[b], (slots[i] & Self.hashMask).leadingZeroBitCount)
            }
            if let side {
                for i in 0..<sideSlots where side[i] != 0 {
                    let b = Self.bucket(side[i])
                    fewest[b] = min(fewest[b], (side[i] & Self.hashMask).leadingZeroBitCount)
                }
            }
            state.pointee.fewestZeros = fewest
        }
        // Buckets first seen since have no entries (none could be added to the full table).
        let known = state.pointee.fewestZeros.count
        state.pointee.fewestZeros += repeatElement(65, count: bucketCount - known)
        state.pointee.work &+= bucketCount
        let fewest = state.pointee.fewestZeros
        // `keeps` keeps at level 1...63 the hashes with that many leading zeros, at 64 on none.
        guard (0..<bucketCount).contains(where: { fewest[$0] < (levelOf[$0] < 64 ? Int(levelOf[$0]) : 65) })
        else { return }
        state.pointee.fewestZeros = []
        var kept: [UInt64] = []
        kept.reserveCapacity(count)
        for i in 0...state.pointee.slotMask where slots[i] != 0 {
            let s = slots[i]
            if isKept(s) { kept.append(s) } else { entriesOf[Self.bucket(s)] -= 1 }
            slots[i] = 0
        }
        if let side {
            for i in 0..<sideSlots where side[i] != 0 {
                let s = side[i]
                if isKept(s) { kept.append(s) } else { entriesOf[Self.bucket(s)] -= 1 }
            }
            side.deallocate()
            state.pointee.side = nil
            state.pointee.sideCount = 0
        }
        state.pointee.placeLevelOf.update(from: levelOf, count: bucketCount)
        state.pointee.count = kept.count
        for s in kept { place(s) }
    }
}

extension ClientSample {
    /// The per-line way into a sample, for the audit's sink: ``prefetch(bucket:hash:)`` starts
    /// bringing in the client's home slot and returns it, and ``note(bucket:hash:key:bits:home:)``
    /// a little later probes from there, inlined into the line's code (no call, no second
    /// working out of the home). It reads and writes the sample's state as
    /// ``ClientSample/note(bucket:hash:key:bits:)`` does and leaves the same table: what is not
    /// the common case (a bucket not seen yet, a full probe, a table to grow or thin, a new split
    /// client's example) goes to the sample's own code. Valid while the sample lives, and only
    /// while nothing else notes into it between a prefetch and its note.
    struct Noter {
        private let state: UnsafeMutablePointer<State>
        private let sample: Unmanaged<ClientSample>
        private let maxEntries: Int
        private let maxSlots: Int

        init(_ sample: ClientSample) {
            state = sample.state
            self.sample = .passUnretained(sample)
            maxEntries = sample.maxEntries
            maxSlots = sample.maxSlots
        }

        /// Starts bringing in the slot where the client of `hash` in `bucket` is looked for first,
        /// so that the note a little later finds it in the cache (a client's slot is anywhere in
        /// the table, which can be larger than a core's cache), and returns it (-1 for a bucket
        /// the sample has not seen).
        @inline(__always)
        func prefetch(bucket: Int, hash: UInt64) -> Int {
            guard bucket < state.pointee.bucketCount else { return -1 }
            let identity = hash & ClientSample.hashMask | UInt64(bucket) << 2
            let slot = sample._withUnsafeGuaranteedRef {
                $0.home(identity, level: Int(state.pointee.placeLevelOf[bucket]))
            }
            ua_prefetch(state.pointee.slots + slot)
            return slot
        }

        /// Notes that the client of `hash` (key bytes `key`) made a request of kind `bits` in
        /// `bucket`; `home` is what ``prefetch(bucket:hash:)`` returned for them just before.
        @inline(__always)
        func note(bucket: Int, hash: UInt64, key: UnsafeRawBufferPointer, bits: UInt8, home: Int) {
            guard home >= 0 else {
                sample._withUnsafeGuaranteedRef { $0.note(bucket: bucket, hash: hash, key: key, bits: bits) }
                return
            }
            guard ClientSample.keeps(hash, level: Int(state.pointee.levelOf[bucket])) else { return }
            let identity = hash & ClientSample.hashMask | UInt64(bucket) << 2
            let (slot, found, probes) = ClientSample.probe(state, identity: identity, home: home)
            if found {
                state.pointee.work &+= probes
                ClientSample.add(bits, at: slot, state: state, bucket: bucket, key: key, sample: sample)
                return
            }
            let count = state.pointee.count
            let slots = state.pointee.slotMask + 1
            if slot < 0 || count == maxEntries || (count + 1) * 2 > slots && slots < maxSlots {
                // The side table, or room to make: the sample's own code, from the start.
                sample._withUnsafeGuaranteedRef { $0.note(bucket: bucket, hash: hash, key: key, bits: bits) }
                return
            }
            state.pointee.work &+= probes
            state.pointee.count = count + 1
            state.pointee.slots[slot] = identity | UInt64(bits)
            state.pointee.entriesOf[bucket] += 1
        }
    }
}

extension ClientSample {
    /// One empty table kept between the chunks of one thread: each chunk's sample takes it and
    /// ``ClientSample/finish()`` gives it back emptied, so that a chunk neither allocates nor
    /// zeroes its table (up to 2 MiB), and starts at the size the last one needed. Used by one
    /// thread only.
    final class Pool {
        private var spare: (slots: UnsafeMutablePointer<UInt64>, count: Int)?

        init() {}

        deinit { spare?.slots.deallocate() }

        /// The spare table (all 0) and its slot count, if it has at most `maxSlotCount` slots.
        func take(maxSlotCount: Int) -> (UnsafeMutablePointer<UInt64>, Int)? {
            guard let (slots, count) = spare, count <= maxSlotCount else { return nil }
            spare = nil
            return (slots, count)
        }

        /// Keeps `slots` (all 0) for the next sample; a table already kept is freed.
        func give(_ slots: UnsafeMutablePointer<UInt64>, slotCount: Int) {
            spare?.slots.deallocate()
            spare = (slots, slotCount)
        }
    }
}
