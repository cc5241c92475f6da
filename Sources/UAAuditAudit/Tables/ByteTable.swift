import CUAScan
import UAAuditInput

/// An open-addressing hash table from (tag, byte string) to an `Int64`, in memory allocated once.
///
/// Keys are copied into one arena; the table refuses new keys (``insert(_:tag:hash:)`` returns nil)
/// once it holds `maxEntries` keys or its arena is full, so it never grows past its set size.
/// Its slots grow with its keys up to that size, as ``SlotIndex``'s do.
/// Used for the per-UA class cache and the per-hour UA counts.
///
/// A lookup goes from its slot straight to its key: each 8-byte slot holds the high half of the
/// key's hash and where its record starts in the arena, and the record holds the key's hash,
/// length, tag and entry before its bytes. So a key found costs two places in memory (the slot,
/// which ``prefetch(hash:)`` can start bringing in early, and the record), not the three of an
/// index of entry numbers in front of per-entry arrays, each waited for in turn when the table
/// is out of the cache. A full table (16,384 keys) takes about 190 KiB more than those arrays
/// did (8-byte slots where the index had 4, and a record index).
final class ByteTable {
    let maxEntries: Int
    let arenaBytes: Int
    private(set) var count = 0

    /// A slot: 0 in `place` when empty, else the record's offset in the arena plus one.
    private struct Slot {
        var hashHigh: UInt32
        var place: UInt32
    }

    /// The bytes before a record's key: its hash (`UInt64`), then its length, tag and entry
    /// (`Int32`s).
    private static let header = 20

    /// Behind a pointer: a class's stored `var` costs a dynamic exclusivity check on every access.
    private struct Slots {
        var slots: UnsafeMutablePointer<Slot>
        /// The slot count minus one (a power of two minus one).
        var mask: Int
    }
    private let index: UnsafeMutablePointer<Slots>
    /// The most slots: the smallest power of two (16 at least) with room for twice `maxEntries`.
    private let maxSlots: Int
    /// Where each entry's record starts, for ``key(_:)`` and ``tag(_:)``.
    private let records: UnsafeMutablePointer<Int32>
    let values: UnsafeMutablePointer<Int64>
    /// The records: `arenaBytes` of keys plus a header per entry (only key bytes count against
    /// `arenaBytes`, so the header changes nothing a table refuses).
    private let arena: UnsafeMutableRawPointer
    private var arenaUsed = 0
    private var keyBytesUsed = 0
    /// The slots it has now.
    var slotCount: Int { index.pointee.mask + 1 }
    /// Key bytes held in the arena.
    var bytesUsed: Int { keyBytesUsed }

    init(maxEntries: Int, arenaBytes: Int) {
        self.maxEntries = max(maxEntries, 1)
        self.arenaBytes = max(arenaBytes, 1)
        var maxSlots = 16
        while maxSlots < self.maxEntries * 2 { maxSlots <<= 1 }
        self.maxSlots = maxSlots
        let slotCount = min(maxSlots, SlotIndex.initialSlots)
        index = .allocate(capacity: 1)
        index.initialize(to: Slots(slots: Self.emptySlots(slotCount), mask: slotCount - 1))
        records = .allocate(capacity: self.maxEntries)
        values = .allocate(capacity: self.maxEntries)
        arena = .allocate(byteCount: self.arenaBytes + self.maxEntries * Self.header, alignment: 8)
    }

    deinit {
        index.pointee.slots.deallocate()
        index.deallocate()
        records.deallocate()
        values.deallocate()
        arena.deallocate()
    }

    private static func emptySlots(_ count: Int) -> UnsafeMutablePointer<Slot> {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: count)
        slots.initialize(repeating: Slot(hashHigh: 0, place: 0), count: count)
        return slots
    }

    /// Starts bringing in the slot a key of `hash` is looked for from, so that a
    /// ``find(_:tag:hash:)`` a little later does not wait for it (a hint: no effect on results).
    @inline(__always)
    func prefetch(hash: UInt64) {
        ua_prefetch(index.pointee.slots + (Int(truncatingIfNeeded: hash) & index.pointee.mask))
    }

    /// The entry holding `key` under `tag`, if any.
    @inline(__always)
    func find(_ key: UnsafeRawBufferPointer, tag: Int32 = 0, hash: UInt64) -> Int? {
        let (slots, mask) = (index.pointee.slots, index.pointee.mask)
        let high = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let s = slots[slot]
            if s.place == 0 { return nil }
            if s.hashHigh == high {
                let record = arena + Int(s.place - 1)
                if record.loadUnaligned(as: UInt64.self) == hash,
                    Int(record.loadUnaligned(fromByteOffset: 8, as: Int32.self)) == key.count,
                    record.loadUnaligned(fromByteOffset: 12, as: Int32.self) == tag,
                    key.count == 0 || Syscalls.memcmp(record + Self.header, key.baseAddress!, key.count) == 0
                {
                    return Int(record.loadUnaligned(fromByteOffset: 16, as: Int32.self))
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `key` (which must not be present) with value 0; nil when the table is full.
    @inline(__always)
    func insert(_ key: UnsafeRawBufferPointer, tag: Int32 = 0, hash: UInt64) -> Int? {
        guard count < maxEntries, keyBytesUsed + key.count <= arenaBytes else { return nil }
        if (count + 1) * 2 > slotCount, slotCount < maxSlots { grow() }
        let e = count
        count += 1
        let record = arena + arenaUsed
        record.storeBytes(of: hash, as: UInt64.self)
        record.storeBytes(of: Int32(key.count), toByteOffset: 8, as: Int32.self)
        record.storeBytes(of: tag, toByteOffset: 12, as: Int32.self)
        record.storeBytes(of: Int32(e), toByteOffset: 16, as: Int32.self)
        if key.count > 0 { (record + Self.header).copyMemory(from: key.baseAddress!, byteCount: key.count) }
        place(UInt32(arenaUsed + 1), hash: hash)
        records[e] = Int32(arenaUsed)
        values[e] = 0
        arenaUsed += Self.header + key.count
        keyBytesUsed += key.count
        return e
    }

    /// Puts a slot for the record at `place` - 1 (a key known to be absent) at the first free
    /// place from its home.
    private func place(_ place: UInt32, hash: UInt64) {
        let (slots, mask) = (index.pointee.slots, index.pointee.mask)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot].place != 0 { slot = (slot + 1) & mask }
        slots[slot] = Slot(hashHigh: UInt32(truncatingIfNeeded: hash >> 32), place: place)
    }

    /// Doubles the slots and places every entry again from its record's hash (entries keep
    /// their indices).
    private func grow() {
        let size = (index.pointee.mask + 1) * 2
        index.pointee.slots.deallocate()
        index.pointee = Slots(slots: Self.emptySlots(size), mask: size - 1)
        for e in 0..<count {
            let offset = Int(records[e])
            place(UInt32(offset + 1), hash: (arena + offset).loadUnaligned(as: UInt64.self))
        }
    }

    /// Forgets every entry, keeping the memory and the slots' size.
    func removeAll() {
        index.pointee.slots.update(repeating: Slot(hashHigh: 0, place: 0), count: slotCount)
        count = 0
        arenaUsed = 0
        keyBytesUsed = 0
    }

    /// The key bytes of entry `e`.
    func key(_ e: Int) -> UnsafeRawBufferPointer {
        let record = arena + Int(records[e])
        return UnsafeRawBufferPointer(
            start: record + Self.header, count: Int(record.loadUnaligned(fromByteOffset: 8, as: Int32.self)))
    }

    func tag(_ e: Int) -> Int32 { (arena + Int(records[e])).loadUnaligned(fromByteOffset: 12, as: Int32.self) }
}
