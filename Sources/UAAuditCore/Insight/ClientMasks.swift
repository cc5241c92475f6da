/// Client hash → the kinds of request it made (``ClientSample``'s mask bits): the masks of one
/// hour's ``ClientSet``.
///
/// An open-addressing table with linear probing, at most three quarters full (as full as a
/// `Dictionary`, so no more memory than it took). The keys are hashes
/// already, spread once more by a multiply, so no hasher runs per entry: merging a chunk's
/// clients into its hours (serial work after the scan) cost a SipHash per entry with a
/// `Dictionary`. Iteration order is the table's; everything that leaves the process (the state
/// file) is sorted by hash first.
package struct ClientMasks: Sendable {
    /// Per slot: 0 when empty, else 0x100 | mask.
    private var marks: [UInt16]
    private var keys: [UInt64]
    private var shift: UInt64
    package private(set) var count = 0

    package init() {
        marks = Array(repeating: 0, count: 16)
        keys = Array(repeating: 0, count: 16)
        shift = 60
    }

    package var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The mask of `hash`, nil when absent.
    package subscript(hash: UInt64) -> UInt8? {
        var slot = home(hash)
        let last = marks.count - 1
        while marks[slot] != 0 {
            if keys[slot] == hash { return UInt8(truncatingIfNeeded: marks[slot]) }
            slot = slot == last ? 0 : slot + 1
        }
        return nil
    }

    /// Adds `mask`'s bits to the entry of `hash`, creating it.
    @inline(__always)
    package mutating func formUnion(_ hash: UInt64, _ mask: UInt8) {
        if (count + 1) * 4 > marks.count * 3 { grow() }
        var slot = home(hash)
        let last = marks.count - 1
        while marks[slot] != 0 {
            if keys[slot] == hash {
                marks[slot] |= UInt16(mask)
                return
            }
            slot = slot == last ? 0 : slot + 1
        }
        marks[slot] = 0x100 | UInt16(mask)
        keys[slot] = hash
        count += 1
    }

    /// Makes room for `additional` more entries at once (no doubling step by step).
    package mutating func reserve(additional: Int) {
        var size = marks.count
        while (count + additional) * 4 > size * 3 { size *= 2 }
        if size > marks.count { rehash(into: size) }
    }

    /// Calls `body` with every (hash, mask), in table order.
    package func forEachEntry(_ body: (UInt64, UInt8) -> Void) {
        for slot in marks.indices where marks[slot] != 0 { body(keys[slot], UInt8(truncatingIfNeeded: marks[slot])) }
    }

    /// The entries whose hash `isIncluded` keeps, in a table sized for them once (counted
    /// first: no doubling while they go in, and no more room than they need).
    package func filter(_ isIncluded: (UInt64) -> Bool) -> ClientMasks {
        var keep = 0
        forEachEntry { hash, _ in if isIncluded(hash) { keep += 1 } }
        var kept = ClientMasks()
        kept.reserve(additional: keep)
        forEachEntry { hash, mask in if isIncluded(hash) { kept.formUnion(hash, mask) } }
        return kept
    }

    /// Every hash, ascending.
    package var sortedKeys: [UInt64] {
        var all: [UInt64] = []
        all.reserveCapacity(count)
        forEachEntry { hash, _ in all.append(hash) }
        return all.sorted()
    }

    private mutating func grow() { rehash(into: marks.count * 2) }

    private mutating func rehash(into size: Int) {
        let old = (marks, keys)
        marks = Array(repeating: 0, count: size)
        keys = Array(repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        count = 0
        for slot in old.0.indices where old.0[slot] != 0 {
            formUnion(old.1[slot], UInt8(truncatingIfNeeded: old.0[slot]))
        }
    }
}

extension ClientMasks: Equatable {
    /// The same (hash, mask) pairs, whatever the table sizes and orders.
    package static func == (a: ClientMasks, b: ClientMasks) -> Bool {
        guard a.count == b.count else { return false }
        var same = true
        a.forEachEntry { hash, mask in if same, b[hash] != mask { same = false } }
        return same
    }
}
