/// The slots of an open-addressing table whose entries live in arrays by index
/// (``CounterTable``; ``ByteTable`` keeps its own slots, which hold each key's hash and record,
/// by the same rules): entry index + 1 per slot, 0 for an empty one, at most half of them used.
///
/// It starts small and doubles, placing every entry again from its hash, when one more entry
/// would fill more than half of it, up to the size `maxEntries` entries need. A table that holds
/// a few hundred keys (a chunk's families, its alert paths, the UA cache of most logs) is then
/// looked up in a few kilobytes instead of a fixed 32–128 KiB that every lookup lands in at
/// random, and a new one (a tally per chunk) clears a few slots. Entry indices never change, so
/// what a table holds and the order it lists its entries in do not depend on its size.
struct SlotIndex {
    /// The slots a table starts with (fewer when `maxEntries` needs fewer).
    static let initialSlots = 256

    private(set) var slots: UnsafeMutablePointer<Int32>
    /// The slot count minus one (a power of two minus one).
    private(set) var mask: Int
    /// The most slots: the smallest power of two (16 at least) with room for twice `maxEntries`.
    let maxSlots: Int

    init(maxEntries: Int) {
        var maxSlots = 16
        while maxSlots < maxEntries * 2 { maxSlots <<= 1 }
        self.maxSlots = maxSlots
        let count = min(maxSlots, SlotIndex.initialSlots)
        slots = SlotIndex.emptySlots(count)
        mask = count - 1
    }

    private static func emptySlots(_ count: Int) -> UnsafeMutablePointer<Int32> {
        let slots = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        slots.initialize(repeating: 0, count: count)
        return slots
    }

    func deallocate() { slots.deallocate() }

    /// Empties every slot, keeping the size reached.
    func removeAll() { slots.update(repeating: 0, count: mask + 1) }

    /// Before entry `count` (the next index) is placed: doubles the slots when it would fill more
    /// than half of them and they can still grow, placing entries `0..<count` again by
    /// `home(e)` (the slot entry `e` is looked for from, before masking).
    @inline(__always)
    mutating func makeRoom(count: Int, home: (Int) -> Int) {
        if (count + 1) * 2 > mask + 1, mask + 1 < maxSlots { grow(count: count, home: home) }
    }

    private mutating func grow(count: Int, home: (Int) -> Int) {
        let size = (mask + 1) * 2
        slots.deallocate()
        slots = SlotIndex.emptySlots(size)
        mask = size - 1
        for e in 0..<count {
            var slot = home(e) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(e + 1)
        }
    }
}
