import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The tables' slots grow with their keys (``SlotIndex``, and ``ByteTable``'s own slots by the
/// same rule): what they hold, and the entry each key has, must be what a table allocated at
/// full size holds.
@Suite struct SlotIndexTests {
    @Test func byteTableGrowsThroughEverySizeAndFindsEveryKeyAtItsEntry() {
        let table = ByteTable(maxEntries: 5_000, arenaBytes: 1 << 20)
        #expect(table.slotCount == SlotIndex.initialSlots)
        var sizes: [Int] = [table.slotCount]
        var keys: [[UInt8]] = []
        for i in 0..<5_000 {
            // Keys of many lengths, some sharing long prefixes, and the empty key.
            let key: [UInt8] = i == 0 ? [] : Array("key-\(i % 7)-\(String(repeating: "x", count: i % 40))-\(i)".utf8)
            let e = key.withUnsafeBytes { table.insert($0, tag: Int32(i % 3), hash: ByteHash.table($0)) }
            #expect(e == i)
            keys.append(key)
            if sizes.last != table.slotCount { sizes.append(table.slotCount) }
        }
        #expect(sizes == [256, 512, 1_024, 2_048, 4_096, 8_192, 16_384])
        for (i, key) in keys.enumerated() {
            key.withUnsafeBytes { raw in
                #expect(table.find(raw, tag: Int32(i % 3), hash: ByteHash.table(raw)) == i)
                #expect(table.find(raw, tag: Int32(i % 3 + 1), hash: ByteHash.table(raw)) == nil)
            }
            #expect(Array(table.key(i)) == key)
        }
        // Full: a new key is refused, an old one is still found.
        let extra = Array("one more".utf8)
        #expect(extra.withUnsafeBytes { table.insert($0, hash: ByteHash.table($0)) } == nil)
        // Emptied, it keeps its size and takes keys again from entry 0.
        table.removeAll()
        #expect(table.slotCount == 16_384)
        #expect(keys[9].withUnsafeBytes { table.find($0, tag: 0, hash: ByteHash.table($0)) } == nil)
        #expect(keys[9].withUnsafeBytes { table.insert($0, tag: 0, hash: ByteHash.table($0)) } == 0)
        #expect(keys[9].withUnsafeBytes { table.find($0, tag: 0, hash: ByteHash.table($0)) } == 0)
    }

    @Test func byteTableWithCollidingHashesStillFindsEachKey() {
        // Every key under one hash: the slots grow, and each key is told apart by its bytes.
        let table = ByteTable(maxEntries: 600, arenaBytes: 1 << 16)
        for i in 0..<600 { #expect(Array("k\(i)".utf8).withUnsafeBytes { table.insert($0, hash: 42) } == i) }
        #expect(table.slotCount == 2_048)
        for i in 0..<600 { #expect(Array("k\(i)".utf8).withUnsafeBytes { table.find($0, hash: 42) } == i) }
        #expect(Array("k600".utf8).withUnsafeBytes { table.find($0, hash: 42) } == nil)
    }

    /// A record's header (length and tag, kept before its key bytes) takes no room a caller
    /// sized: only key bytes count against `arenaBytes`, as before records had one.
    @Test func byteTableArenaCountsKeyBytesOnly() {
        let table = ByteTable(maxEntries: 10, arenaBytes: 20)
        let keys = [Array("0123456789".utf8), Array("abcdefghij".utf8), Array("z".utf8)]
        #expect(keys[0].withUnsafeBytes { table.insert($0, tag: 7, hash: 1) } == 0)
        #expect(keys[1].withUnsafeBytes { table.insert($0, tag: -3, hash: 1) } == 1)
        #expect(table.bytesUsed == 20)
        #expect(keys[2].withUnsafeBytes { table.insert($0, hash: 2) } == nil)
        #expect([UInt8]().withUnsafeBytes { table.insert($0, tag: 5, hash: 3) } == 2)
        #expect((Array(table.key(0)), table.tag(0)) == (keys[0], 7))
        #expect((Array(table.key(1)), table.tag(1)) == (keys[1], -3))
        #expect((table.key(2).count, table.tag(2)) == (0, 5))
        #expect(keys[1].withUnsafeBytes { table.find($0, tag: -3, hash: 1) } == 1)
        #expect(keys[1].withUnsafeBytes { table.find($0, tag: 7, hash: 1) } == nil)
        #expect([UInt8]().withUnsafeBytes { table.find($0, tag: 5, hash: 3) } == 2)
    }

    @Test func counterTableGrowsAndCountsLikeADictionary() {
        let table = CounterTable(maxEntries: 3_000)
        var expected: [UInt64: Int64] = [:]
        var order: [UInt64] = []
        var state: UInt64 = 0x1234_5678
        for i in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = (state >> 33) % 1_400 &* 1_000_003 | UInt64(i % 2) << 62
            let n = Int64(i % 5 + 1)
            if expected[key] == nil { order.append(key) }
            #expect(table.add(key, n))
            expected[key, default: 0] += n
        }
        #expect(table.count == expected.count)
        #expect(table.slotCount == 8_192)
        // Entries in first-seen order, with the dictionary's sums.
        for e in 0..<table.count {
            #expect(table.key(e) == order[e])
            #expect(table.value(e) == expected[order[e]])
        }
        #expect(!table.addExisting(1))
        #expect(table.addExisting(order[0], 2))
        #expect(table.value(0) == expected[order[0]]! + 2)
    }

    @Test func counterKeysThatDifferOnlyInHighBitsGetDifferentSlots() {
        // The tally's family keys: the hour at bit 40, the family at bit 8, the class below. A
        // thousand hours of one family and class must spread over the slots of every size, not
        // share one home (each request then walked all of them).
        let keys = (0..<UInt64(1_000)).map { $0 << 40 | 7 << 8 | 2 }
        for bits in 8...15 {
            let mask = UInt64(1) << UInt64(bits) - 1
            let homes = Set(keys.map { CounterTable.spread($0) & mask })
            let slots = 1 << bits
            // A random function fills about slots × (1 − e^(−1000/slots)) of them.
            let expected = Double(slots) * (1 - exp(-1_000 / Double(slots)))
            #expect(Double(homes.count) > expected * 0.9, "\(slots) slots: \(homes.count) homes")
        }
    }

    @Test func tablesStartAt256SlotsOrTheirFullSizeIfSmaller() {
        #expect(CounterTable(maxEntries: 1).slotCount == 16)
        #expect(CounterTable(maxEntries: 100).slotCount == 256)
        #expect(ByteTable(maxEntries: 4_096, arenaBytes: 64).slotCount == 256)
    }
}
