import UAAuditInput

/// A bounded open-addressing table from a 64-bit key to a counter, allocated once.
///
/// ``add(_:_:)`` refuses a new key (returns false) once the table holds `maxEntries` keys, so
/// however many distinct keys arrive it never grows past that; the caller counts what was
/// refused. Its slots grow with its keys up to that size (``SlotIndex``).
final class CounterTable {
    let maxEntries: Int
    private(set) var count = 0

    /// Behind a pointer: a class's stored `var` costs a dynamic exclusivity check on every access.
    private let index: UnsafeMutablePointer<SlotIndex>
    private let keys: UnsafeMutablePointer<UInt64>
    private let values: UnsafeMutablePointer<Int64>

    /// The slots it has now (``SlotIndex``).
    var slotCount: Int { index.pointee.mask + 1 }
    init(maxEntries: Int) {
        self.maxEntries = max(maxEntries, 1)
        index = .allocate(capacity: 1)
        index.initialize(to: SlotIndex(maxEntries: self.maxEntries))
        keys = .allocate(capacity: self.maxEntries)
        values = .allocate(capacity: self.maxEntries)
    }

    deinit {
        index.pointee.deallocate()
        index.deallocate()
        keys.deallocate()
        values.deallocate()
    }

    /// Adds `n` to the counter of `key`; false when the key is new and the table is full.
    @inline(__always)
    @discardableResult
    func add(_ key: UInt64, _ n: Int64 = 1) -> Bool {
        var (slots, slotMask) = (index.pointee.slots, index.pointee.mask)
        var slot = Int(truncatingIfNeeded: CounterTable.spread(key)) & slotMask
        while true {
            let e = Int(slots[slot]) - 1
            if e < 0 { break }
            if keys[e] == key {
                values[e] &+= n
                return true
            }
            slot = (slot + 1) & slotMask
        }
        guard count < maxEntries else { return false }
        let keys = self.keys
        index.pointee.makeRoom(count: count) { Int(truncatingIfNeeded: CounterTable.spread(keys[$0])) }
        if index.pointee.mask != slotMask {
            // Grown: the empty slot found above is in the old slots.
            (slots, slotMask) = (index.pointee.slots, index.pointee.mask)
            slot = Int(truncatingIfNeeded: CounterTable.spread(key)) & slotMask
            while slots[slot] != 0 { slot = (slot + 1) & slotMask }
        }
        let e = count
        count += 1
        slots[slot] = Int32(e + 1)
        keys[e] = key
        values[e] = n
        return true
    }

    /// Adds `n` to the counter of `key` when it is already in the table; false when it is not.
    @inline(__always)
    func addExisting(_ key: UInt64, _ n: Int64 = 1) -> Bool {
        let (slots, slotMask) = (index.pointee.slots, index.pointee.mask)
        var slot = Int(truncatingIfNeeded: CounterTable.spread(key)) & slotMask
        while true {
            let e = Int(slots[slot]) - 1
            if e < 0 { return false }
            if keys[e] == key {
                values[e] &+= n
                return true
            }
            slot = (slot + 1) & slotMask
        }
    }

    func key(_ e: Int) -> UInt64 { keys[e] }
    func value(_ e: Int) -> Int64 { values[e] }

    /// The key mixed so that every bit of it reaches the low bits the slot is taken from
    /// (MurmurHash3's 64-bit finisher). The tally's keys put the hour at bit 40: a multiply
    /// alone carries bits only upwards, so before, one family's counts of every hour of a chunk
    /// shared a home slot and every request walked their run (up to 1,000 slots on a quiet
    /// server's log, with a small table).
    @inline(__always)
    static func spread(_ key: UInt64) -> UInt64 {
        var x = key
        x = (x ^ (x &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x = (x ^ (x &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return x ^ (x &>> 33)
    }
}
