import Testing

@testable import UAAuditCore

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

        let kept = table.filter { ClientSample.keeps($0, level: 2) }
        let expected = reference.filter { ClientSample.keeps($0.key, level: 2) }
        #expect(kept.count == expected.count)
        kept.forEachEntry { hash, mask in #expect(expected[hash] == mask) }
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
    }
}
