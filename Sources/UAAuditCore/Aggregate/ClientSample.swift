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
/// cache line, and the 131,072-client table is 2 MiB. Two clients share an entry only if their
/// hashes agree in 44 bits (for 131,072 clients, about one chance in 2,000 that any pair does).
package final class ClientSample {
    /// Mask bits: seen with an app class, seen with the alert class.
    package static let app: UInt8 = 1
    package static let alert: UInt8 = 2
    package static let split: UInt8 = 3
    package static let examplesPerHour = 3
    package static let maxExampleBytes = 128

    /// The hash bits an entry keeps (the top 44; the sampling level reads the top bits).
    package static let hashMask: UInt64 = ~((1 << 20) - 1)
    /// Buckets from this one on are not counted (2^18 hours: thirty years in one chunk).
    package static let maxBuckets = 1 << 18

    package let maxEntries: Int
    package var count: Int { state.pointee.count }
    /// Key bytes (as logged) of the first split clients of each bucket.
    package private(set) var examples: [Int: [[UInt8]]] = [:]

    private let slotMask: Int
    private let slots: UnsafeMutablePointer<UInt64>
    /// What changes per request, behind a pointer: a class's stored `var` costs a dynamic
    /// exclusivity check on every access.
    private struct State {
        var count = 0
        /// Per bucket: the sampling level (it keeps the clients whose hash's top `level` bits
        /// are 0), and how many entries it has.
        var levelOf: UnsafeMutablePointer<Int32>
        var entriesOf: UnsafeMutablePointer<Int32>
        var bucketCapacity = 64
        var bucketCount = 0
    }
    private let state: UnsafeMutablePointer<State>
    package var bucketCount: Int { state.pointee.bucketCount }

    package init(maxEntries: Int) {
        self.maxEntries = max(maxEntries, 2)
        var slotCount = 16
        while slotCount < self.maxEntries * 2 { slotCount <<= 1 }
        slotMask = slotCount - 1
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
        state = .allocate(capacity: 1)
        state.initialize(to: State(levelOf: .allocate(capacity: 64), entriesOf: .allocate(capacity: 64)))
    }

    deinit {
        slots.deallocate()
        state.pointee.levelOf.deallocate()
        state.pointee.entriesOf.deallocate()
        state.deallocate()
    }

    /// True when a client of this hash is kept at `level`.
    @inline(__always)
    package static func keeps(_ hash: UInt64, level: Int) -> Bool {
        level == 0 || (level < 64 && hash >> UInt64(64 - level) == 0)
    }

    /// How many entries `bucket` has (0 for a bucket never seen).
    package func entries(of bucket: Int) -> Int { bucket < bucketCount ? Int(state.pointee.entriesOf[bucket]) : 0 }

    /// The sampling level of `bucket` (0 for a bucket never seen).
    package func level(of bucket: Int) -> Int { bucket < bucketCount ? Int(state.pointee.levelOf[bucket]) : 0 }

    /// Notes that the client whose key field is `key` made a request of kind `bits` in `bucket`.
    @inline(__always)
    func note(bucket: Int, key: UnsafeRawBufferPointer, bits: UInt8) {
        guard bucket < ClientSample.maxBuckets else { return }
        if bucket >= bucketCount { addBuckets(through: bucket) }
        let hash = ByteHash.hash(key)
        guard ClientSample.keeps(hash, level: Int(state.pointee.levelOf[bucket])) else { return }
        let identity = hash & ClientSample.hashMask | UInt64(bucket) << 2
        var slot = Int(truncatingIfNeeded: ClientSample.spread(identity)) & slotMask
        while true {
            let s = slots[slot]
            if s == 0 { break }
            if s & ~3 == identity {
                if s | UInt64(bits) != s {
                    slots[slot] = s | UInt64(bits)
                    if (s | UInt64(bits)) & 3 == UInt64(ClientSample.split) { keepExample(bucket: bucket, key: key) }
                }
                return
            }
            slot = (slot + 1) & slotMask
        }
        if state.pointee.count == maxEntries {
            thin()
            note(bucket: bucket, key: key, bits: bits)
            return
        }
        state.pointee.count += 1
        slots[slot] = identity | UInt64(bits)
        state.pointee.entriesOf[bucket] += 1
    }

    /// Calls `body` with each entry: its bucket, hash (its kept bits) and mask.
    package func forEachEntry(_ body: (_ bucket: Int, _ hash: UInt64, _ mask: UInt8) -> Void) {
        for i in 0...slotMask where slots[i] != 0 {
            body(Self.bucket(slots[i]), slots[i] & Self.hashMask, UInt8(slots[i] & 3))
        }
    }

    @inline(__always)
    static func bucket(_ slot: UInt64) -> Int { Int((slot & ~hashMask) >> 2) }

    /// Where an entry (with or without its mask bits) starts probing.
    @inline(__always)
    static func spread(_ slot: UInt64) -> UInt64 {
        let x = (slot & ~3) &* 0x9E37_79B9_7F4A_7C15
        return x ^ (x >> 32)
    }

    private func addBuckets(through bucket: Int) {
        let bucketCount = state.pointee.bucketCount
        if bucket >= state.pointee.bucketCapacity {
            var capacity = state.pointee.bucketCapacity
            while capacity <= bucket { capacity *= 2 }
            for table in [\State.levelOf, \State.entriesOf] {
                let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
                bigger.update(from: state.pointee[keyPath: table], count: bucketCount)
                state.pointee[keyPath: table].deallocate()
                state.pointee[keyPath: table] = bigger
            }
            state.pointee.bucketCapacity = capacity
        }
        (state.pointee.levelOf + bucketCount).initialize(repeating: 0, count: bucket + 1 - bucketCount)
        (state.pointee.entriesOf + bucketCount).initialize(repeating: 0, count: bucket + 1 - bucketCount)
        state.pointee.bucketCount = bucket + 1
    }

    private func keepExample(bucket: Int, key: UnsafeRawBufferPointer) {
        if examples[bucket, default: []].count < ClientSample.examplesPerHour {
            examples[bucket, default: []].append(Array(key.prefix(ClientSample.maxExampleBytes)))
        }
    }

    /// Makes room: halves the sampling rate of the bucket with the most clients, again and again
    /// (each halving about halves its entries) until the table would be at most three quarters
    /// full, then drops in one pass the clients the new levels no longer keep.
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
        var kept: [UInt64] = []
        kept.reserveCapacity(count)
        for i in 0...slotMask where slots[i] != 0 {
            let s = slots[i]
            let b = Self.bucket(s)
            if ClientSample.keeps(s & Self.hashMask, level: Int(levelOf[b])) {
                kept.append(s)
            } else {
                entriesOf[b] -= 1
            }
            slots[i] = 0
        }
        state.pointee.count = kept.count
        for s in kept {
            var slot = Int(truncatingIfNeeded: ClientSample.spread(s)) & slotMask
            while slots[slot] != 0 { slot = (slot + 1) & slotMask }
            slots[slot] = s
        }
    }
}
