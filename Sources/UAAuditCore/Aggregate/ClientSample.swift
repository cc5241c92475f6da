/// Which clients of each hour bucket were seen with an app class and with the alert class, in
/// memory allocated once: the hot-path half of the split-identity figures (see ``ClientSet``).
///
/// A client is its key field's bytes as logged, remembered by a 64-bit hash. While the table has
/// room every client is kept (exact). When it is full, the bucket with the most clients halves
/// its sampling rate: it then keeps only the clients whose hash has one more leading zero bit,
/// so what remains is a uniform sample of its clients (all of a kept client's requests count,
/// none of a dropped one's). Counts scaled by 2^level estimate the true ones.
public final class ClientSample {
    /// Mask bits: seen with an app class, seen with the alert class.
    public static let app: UInt8 = 1
    public static let alert: UInt8 = 2
    public static let split: UInt8 = 3
    public static let examplesPerHour = 3
    public static let maxExampleBytes = 128

    public let maxEntries: Int
    public private(set) var count = 0
    /// The sampling level of each bucket: it keeps the clients whose hash's top `level` bits are 0.
    public private(set) var levels: [Int] = []
    /// Key bytes (as logged) of the first split clients of each bucket.
    public private(set) var examples: [Int: [[UInt8]]] = [:]

    private let slotMask: Int
    private let slots: UnsafeMutablePointer<Int32>
    private let hashes: UnsafeMutablePointer<UInt64>
    private let buckets: UnsafeMutablePointer<Int32>
    private let masks: UnsafeMutablePointer<UInt8>
    private var perBucket: [Int] = []

    public init(maxEntries: Int) {
        self.maxEntries = max(maxEntries, 2)
        (slots, slotMask) = ByteTable.emptySlots(for: self.maxEntries)
        hashes = .allocate(capacity: self.maxEntries)
        buckets = .allocate(capacity: self.maxEntries)
        masks = .allocate(capacity: self.maxEntries)
    }

    deinit {
        slots.deallocate()
        hashes.deallocate()
        buckets.deallocate()
        masks.deallocate()
    }

    /// True when a client of this hash is kept at `level`.
    @inline(__always)
    public static func keeps(_ hash: UInt64, level: Int) -> Bool {
        level == 0 || (level < 64 && hash >> UInt64(64 - level) == 0)
    }

    /// Notes that the client whose key field is `key` made a request of kind `bits` in `bucket`.
    @inline(__always)
    public func note(bucket: Int, key: UnsafeRawBufferPointer, bits: UInt8) {
        while levels.count <= bucket {
            levels.append(0)
            perBucket.append(0)
        }
        let hash = ByteHash.hash(key)
        guard ClientSample.keeps(hash, level: levels[bucket]) else { return }
        let tag = Int32(truncatingIfNeeded: bucket)
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let e = Int(slots[slot]) - 1
            if e < 0 { break }
            if hashes[e] == hash, buckets[e] == tag {
                let old = masks[e]
                if old | bits != old {
                    masks[e] = old | bits
                    if old | bits == ClientSample.split { keepExample(bucket: bucket, key: key) }
                }
                return
            }
            slot = (slot + 1) & slotMask
        }
        if count == maxEntries {
            thin()
            note(bucket: bucket, key: key, bits: bits)
            return
        }
        let e = count
        count += 1
        slots[slot] = Int32(e + 1)
        hashes[e] = hash
        buckets[e] = tag
        masks[e] = bits
        perBucket[bucket] += 1
    }

    /// Entry `e`: its bucket, hash and mask.
    public func entry(_ e: Int) -> (bucket: Int, hash: UInt64, mask: UInt8) {
        (Int(buckets[e]), hashes[e], masks[e])
    }

    private func keepExample(bucket: Int, key: UnsafeRawBufferPointer) {
        if examples[bucket, default: []].count < ClientSample.examplesPerHour {
            examples[bucket, default: []].append(Array(key.prefix(ClientSample.maxExampleBytes)))
        }
    }

    /// Halves the sampling rate of the bucket with the most clients and drops those it no longer keeps.
    private func thin() {
        guard let bucket = perBucket.indices.max(by: { perBucket[$0] < perBucket[$1] }) else { return }
        levels[bucket] += 1
        let level = levels[bucket]
        var kept = 0
        for e in 0..<count {
            let b = Int(buckets[e])
            if b == bucket, !ClientSample.keeps(hashes[e], level: level) {
                perBucket[b] -= 1
                continue
            }
            hashes[kept] = hashes[e]
            buckets[kept] = buckets[e]
            masks[kept] = masks[e]
            kept += 1
        }
        count = kept
        slots.update(repeating: 0, count: slotMask + 1)
        for e in 0..<count {
            var slot = Int(truncatingIfNeeded: hashes[e]) & slotMask
            while slots[slot] != 0 { slot = (slot + 1) & slotMask }
            slots[slot] = Int32(e + 1)
        }
    }
}
