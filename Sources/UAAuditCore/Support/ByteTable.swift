/// An open-addressing hash table from (tag, byte string) to an `Int64`, in memory allocated once.
///
/// Keys are copied into one arena; the table refuses new keys (``insert(_:tag:hash:)`` returns nil)
/// once it holds `maxEntries` keys or its arena is full, so it never grows past its set size.
/// Its slots grow with its keys up to that size (``SlotIndex``).
/// Used for the per-UA class cache and the per-hour UA counts.
package final class ByteTable {
    package let maxEntries: Int
    package let arenaBytes: Int
    package private(set) var count = 0

    /// Behind a pointer: a class's stored `var` costs a dynamic exclusivity check on every access.
    private let index: UnsafeMutablePointer<SlotIndex>
    private let hashes: UnsafeMutablePointer<UInt64>
    private let offsets: UnsafeMutablePointer<Int32>
    private let lengths: UnsafeMutablePointer<Int32>
    private let tags: UnsafeMutablePointer<Int32>
    let values: UnsafeMutablePointer<Int64>
    private let arena: UnsafeMutableRawPointer
    private var arenaUsed = 0
    /// The slots it has now (``SlotIndex``).
    package var slotCount: Int { index.pointee.mask + 1 }
    /// Key bytes held in the arena.
    var bytesUsed: Int { arenaUsed }

    package init(maxEntries: Int, arenaBytes: Int) {
        self.maxEntries = max(maxEntries, 1)
        self.arenaBytes = max(arenaBytes, 1)
        index = .allocate(capacity: 1)
        index.initialize(to: SlotIndex(maxEntries: self.maxEntries))
        hashes = .allocate(capacity: self.maxEntries)
        offsets = .allocate(capacity: self.maxEntries)
        lengths = .allocate(capacity: self.maxEntries)
        tags = .allocate(capacity: self.maxEntries)
        values = .allocate(capacity: self.maxEntries)
        arena = .allocate(byteCount: self.arenaBytes, alignment: 8)
    }

    deinit {
        index.pointee.deallocate()
        index.deallocate()
        hashes.deallocate()
        offsets.deallocate()
        lengths.deallocate()
        tags.deallocate()
        values.deallocate()
        arena.deallocate()
    }

    /// The entry holding `key` under `tag`, if any.
    @inline(__always)
    func find(_ key: UnsafeRawBufferPointer, tag: Int32 = 0, hash: UInt64) -> Int? {
        let (slots, slotMask) = (index.pointee.slots, index.pointee.mask)
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let e = Int(slots[slot]) - 1
            if e < 0 { return nil }
            if hashes[e] == hash, tags[e] == tag, Int(lengths[e]) == key.count,
                key.count == 0 || Syscalls.memcmp(arena + Int(offsets[e]), key.baseAddress!, key.count) == 0
            {
                return e
            }
            slot = (slot + 1) & slotMask
        }
    }

    /// Adds `key` (which must not be present) with value 0; nil when the table is full.
    @inline(__always)
    func insert(_ key: UnsafeRawBufferPointer, tag: Int32 = 0, hash: UInt64) -> Int? {
        guard count < maxEntries, arenaUsed + key.count <= arenaBytes else { return nil }
        let hashes = self.hashes
        index.pointee.makeRoom(count: count) { Int(truncatingIfNeeded: hashes[$0]) }
        let (slots, slotMask) = (index.pointee.slots, index.pointee.mask)
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while slots[slot] != 0 { slot = (slot + 1) & slotMask }
        let e = count
        count += 1
        slots[slot] = Int32(e + 1)
        hashes[e] = hash
        offsets[e] = Int32(arenaUsed)
        lengths[e] = Int32(key.count)
        tags[e] = tag
        values[e] = 0
        if key.count > 0 { (arena + arenaUsed).copyMemory(from: key.baseAddress!, byteCount: key.count) }
        arenaUsed += key.count
        return e
    }

    /// Forgets every entry, keeping the memory.
    package func removeAll() {
        index.pointee.removeAll()
        count = 0
        arenaUsed = 0
    }

    /// The key bytes of entry `e`.
    func key(_ e: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: arena + Int(offsets[e]), count: Int(lengths[e]))
    }

    package func tag(_ e: Int) -> Int32 { tags[e] }
}
