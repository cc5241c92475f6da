import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The hours' client table against a `Dictionary` doing the same, through growth, reserving,
/// filtering and equality.
@Suite struct ClientMasksTests {
    @Test func holdsWhatADictionaryHolds() {
        var random = SplitMix64(state: 3)
        var table = ClientMasks()
        var reference: [UInt64: UInt8] = [:]
        for i in 0..<50_000 {
            // Hashes as ClientSample keeps them (low 20 bits clear), some repeated, and 0.
            let hash = i % 7 == 0 ? UInt64(i % 1_000) << 20 : random.next() & ClientSample.hashMask
            let mask = UInt8(1 + random.next() % 3)
            table.formUnion(hash, mask)
            reference[hash, default: 0] |= mask
            if i == 10_000 { table.reserve(additional: 100_000) }
        }
        #expect(table.count == reference.count)
        var seen = 0
        table.forEachEntry { hash, mask in
            seen += 1
            #expect(reference[hash] == mask)
        }
        #expect(seen == reference.count)
        #expect(table.sortedKeys == reference.keys.sorted())
        #expect(table[12_345] == nil)

        var kept = table
        kept.keepPrefix { ClientSample.keeps($0, level: 2) }
        let expected = reference.filter { ClientSample.keeps($0.key, level: 2) }
        #expect(kept.count == expected.count)
        #expect(kept.sortedKeys == expected.keys.sorted())
        kept.forEachEntry { hash, mask in #expect(expected[hash] == mask) }
    }

    /// A chunk's packed run (hash in the top 44 bits, mask in the low 2, bucket bits between)
    /// and another table merge in one pass to what adding each entry gives.
    @Test func mergingARunOrATableEqualsAddingEachEntry() {
        var random = SplitMix64(state: 11)
        var table = ClientMasks()
        var reference: [UInt64: UInt8] = [:]
        for _ in 0..<3_000 {
            let hash = (random.next() % 5_000) << 40
            let mask = UInt8(1 + random.next() % 3)
            table.formUnion(hash, mask)
            reference[hash, default: 0] |= mask
        }
        // A run of bucket 7: some hashes the table has (masks joined), some new ones, below
        // and beyond its first and last.
        var run: [UInt64] = []
        for k in stride(from: UInt64(0), to: 6_000, by: 3) {
            let mask = UInt64(1 + k % 3)
            run.append(k << 40 | 7 << 2 | mask)
            reference[k << 40, default: 0] |= UInt8(mask)
        }
        run.withUnsafeBufferPointer { table.merge(sortedRun: $0) }
        #expect(table.count == reference.count)
        #expect(table.sortedKeys == reference.keys.sorted())
        table.forEachEntry { hash, mask in #expect(reference[hash] == mask) }
        #expect(table[3 << 40] == reference[3 << 40])
        #expect(table[5_997 << 40] == ClientSample.app)  // the last of the run: mask 1 + 5,997 % 3 = 1

        var other = ClientMasks()
        for hash in [UInt64(1), 3 << 40, 7_000 << 40] { other.formUnion(hash, ClientSample.alert) }
        let before = table.count
        table.formUnion(other)
        #expect(table.count == before + 2)  // 3 << 40 was there already
        #expect(table[1] == ClientSample.alert)
        #expect(table[7_000 << 40] == ClientSample.alert)
        #expect(table[3 << 40] == (reference[3 << 40] ?? 0) | ClientSample.alert)
        #expect(table.sortedKeys == table.sortedKeys.sorted())
    }

    @Test func equalityIgnoresTableSizeAndOrder() {
        var a = ClientMasks()
        var b = ClientMasks()
        b.reserve(additional: 10_000)
        for hash in [UInt64(5) << 20, 9 << 20, 0, 77 << 20] { a.formUnion(hash, 1) }
        for hash in [UInt64(77) << 20, 0, 9 << 20, 5 << 20] { b.formUnion(hash, 1) }
        #expect(a == b)
        b.formUnion(0, 2)
        #expect(a != b)
        #expect(ClientMasks() == ClientMasks())
        // Hashes out of order (a damaged state file) still land in their place.
        var c = ClientMasks()
        for hash in [UInt64(77) << 20, 0, 9 << 20, 5 << 20, 9 << 20] { c.formUnion(hash, 1) }
        #expect(c.sortedKeys == [0, 5 << 20, 9 << 20, 77 << 20])
        #expect(c == a)
    }
}
