import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ClientSampleTests {
    func note(_ s: ClientSample, _ bucket: Int, _ key: String, _ bits: UInt8) {
        Array(key.utf8).withUnsafeBytes { s.note(bucket: bucket, key: $0, bits: bits) }
    }

    func counts(_ s: ClientSample, bucket: Int) -> (app: Int, alert: Int, split: Int) {
        var c = (app: 0, alert: 0, split: 0)
        s.forEachEntry { b, _, m in
            guard b == bucket else { return }
            if m & 1 != 0 { c.app += 1 }
            if m & 2 != 0 { c.alert += 1 }
            if m == 3 { c.split += 1 }
        }
        return c
    }

    @Test func keepsEveryClientWhileThereIsRoomAndNamesTheFirstSplitOnes() {
        let s = ClientSample(maxEntries: 1_000)
        for i in 0..<100 { note(s, 0, "10.0.0.\(i)", ClientSample.app) }
        for i in 90..<120 { note(s, 0, "10.0.0.\(i)", ClientSample.alert) }
        note(s, 1, "10.0.0.1", ClientSample.alert)  // another hour: not split there
        #expect(counts(s, bucket: 0) == (100, 30, 10))
        #expect(counts(s, bucket: 1) == (0, 1, 0))
        #expect((s.level(of: 0), s.level(of: 1), s.bucketCount) == (0, 0, 2))
        #expect(s.examples[0]?.map { String(decoding: $0, as: UTF8.self) } == ["10.0.0.90", "10.0.0.91", "10.0.0.92"])
        #expect(s.examples[1] == nil)
    }

    /// 200,000 clients in a table of 4,096: the busy hour is sampled, the quiet one stays exact,
    /// and scaled counts are within four standard errors of the truth.
    @Test func aFullTableSamplesTheBusiestHourUniformly() {
        let s = ClientSample(maxEntries: 4_096)
        for i in 0..<50 { note(s, 0, "quiet-\(i)", ClientSample.app) }
        for i in 0..<200_000 {
            note(s, 1, "busy-\(i)", ClientSample.app)
            if i % 10 == 0 { note(s, 1, "busy-\(i)", ClientSample.alert) }
        }
        #expect(s.count <= 4_096)
        #expect(s.level(of: 0) == 0)
        #expect(counts(s, bucket: 0) == (50, 0, 0))
        let level = s.level(of: 1)
        #expect(level >= 6)
        let sampled = counts(s, bucket: 1)
        var c = ClientCounts(level: level)
        (c.app, c.alert, c.split) = (Int64(sampled.app), Int64(sampled.alert), Int64(sampled.split))
        #expect(abs(Double(c.estimate(c.app) - 200_000)) <= 4 * c.standardError(c.app))
        #expect(abs(Double(c.estimate(c.split) - 20_000)) <= 4 * c.standardError(c.split))
        #expect(c.standardError(c.app) > 0)
    }

    /// What the worker hands over: after finish() each bucket's entries are one ascending run,
    /// the same entries the table held, with a busy bucket sampled (its thinning re-placed every
    /// entry), a table small enough that probing wraps past its end, and many buckets.
    @Test(arguments: [(4_096, 3), (64, 40), (1_000, 300)])
    func finishSortsEachBucketsEntriesIntoOneRun(maxEntries: Int, buckets: Int) {
        let s = ClientSample(maxEntries: maxEntries)
        for i in 0..<30_000 {
            // Bucket 0 gets most clients; the others a few each, some clients in several.
            let bucket = i % 3 == 0 ? i % buckets : 0
            note(s, bucket, "client-\(i % 9_000)", i % 7 == 0 ? ClientSample.alert : ClientSample.app)
        }
        var before: [Int: [UInt64: UInt8]] = [:]
        s.forEachEntry { b, hash, mask in before[b, default: [:]][hash] = mask }
        let count = s.count
        s.finish()
        s.finish()  // a second call changes nothing
        #expect(s.count == count)
        #expect(s.level(of: 0) > 0)
        var total = 0
        for b in 0..<s.bucketCount {
            let run = Array(s.run(of: b))
            total += run.count
            #expect(run == run.sorted())
            #expect(run.allSatisfy { ClientSample.bucket($0) == b })
            #expect(run.count == s.entries(of: b))
            let entries = Dictionary(uniqueKeysWithValues: run.map { ($0 & ClientSample.hashMask, UInt8($0 & 3)) })
            #expect(entries == before[b] ?? [:])
        }
        #expect(total == count)
        #expect(s.run(of: s.bucketCount).isEmpty)
        // forEachEntry now goes by bucket, then by hash.
        var order: [UInt64] = []
        s.forEachEntry { b, hash, _ in order.append(UInt64(b) << 44 | hash >> 20) }
        #expect(order == order.sorted())
    }

    /// An hour merging a chunk's run in one pass gets the set that adding the run's entries one
    /// by one gives: the same level, entries and masks, also when the merge goes over the set's
    /// limit and the hour is sampled more coarsely.
    @Test(arguments: [(0, 0, 1_000), (2, 0, 1_000), (0, 3, 1_000), (0, 0, 200_000)])
    func mergingARunEqualsAddingItsEntries(hourLevel: Int, runLevel: Int, clients: Int) {
        let s = ClientSample(maxEntries: 262_144)
        var random = SplitMix64(state: UInt64(clients + hourLevel * 10 + runLevel))
        let key = (0..<clients).map { _ in random.next() }
        for (i, k) in key.enumerated() {
            withUnsafeBytes(of: k) {
                s.note(bucket: 0, key: $0, bits: i % 5 == 0 ? ClientSample.alert : ClientSample.app)
            }
        }
        s.finish()
        var bulk = ClientSet()
        bulk.sample(atLevel: hourLevel)
        for k in key.prefix(clients / 2) {
            let hash = withUnsafeBytes(of: k) { ByteHash.hash($0) } & ClientSample.hashMask
            bulk.add(hash: hash, mask: ClientSample.app, level: hourLevel)
        }
        // The rule, with a dictionary: the union at the coarser level, then coarser while too big.
        var reference: [UInt64: UInt8] = [:]
        bulk.masks.forEachEntry { reference[$0] = $1 }
        for e in s.run(of: 0) { reference[e & ClientSample.hashMask, default: 0] |= UInt8(e & 3) }
        var level = max(hourLevel, runLevel)
        reference = reference.filter { ClientSample.keeps($0.key, level: level) }
        while reference.count > ClientSet.maxEntries {
            level += 1
            reference = reference.filter { ClientSample.keeps($0.key, level: level) }
        }
        var single = bulk
        bulk.add(sortedRun: s.run(of: 0), level: runLevel)
        #expect(bulk.level == level)
        #expect(bulk.level == max(hourLevel, runLevel, clients > ClientSet.maxEntries ? 1 : 0))
        var merged: [UInt64: UInt8] = [:]
        bulk.masks.forEachEntry { merged[$0] = $1 }
        #expect(merged == reference)
        if clients <= 1_000 {
            // Added one by one, in an order other than the run's, as the merge did before.
            for e in s.run(of: 0).reversed() {
                single.add(hash: e & ClientSample.hashMask, mask: UInt8(e & 3), level: runLevel)
            }
            single.sample(atLevel: runLevel)
            #expect(bulk == single)
        }
        #expect(bulk.masks.count <= ClientSet.maxEntries)
        let c = bulk.counts
        #expect(c.app + c.alert - c.split == Int64(bulk.masks.count))
        if clients == 1_000, hourLevel == 0, runLevel == 0 {
            // Exact: every client once, the first 500 split when their run entry is alert.
            #expect(c == ClientCounts(level: 0, app: 900, alert: 200, split: 100))
        }
    }

    /// Chunks of one thread share one table through a pool: finish() gives it back empty, and
    /// the next chunk's sample starts from nothing, as with a table of its own.
    @Test func aPooledTableComesBackEmptyForTheNextChunk() {
        let pool = ClientSample.Pool()
        var runs: [[UInt64]] = []
        for chunk in 0..<3 {
            let pooled = ClientSample(maxEntries: 1_000, pool: pool)
            let own = ClientSample(maxEntries: 1_000)
            for i in 0..<(chunk == 0 ? 900 : 40) {
                for s in [pooled, own] { note(s, i % 2, "c\(chunk)-\(i)", ClientSample.app) }
            }
            pooled.finish()
            own.finish()
            #expect(pooled.count == (chunk == 0 ? 900 : 40))
            #expect(Array(pooled.run(of: 0)) == Array(own.run(of: 0)))
            #expect(Array(pooled.run(of: 1)) == Array(own.run(of: 1)))
            runs.append(Array(pooled.run(of: 1)))
        }
        #expect(runs.map(\.count) == [450, 20, 20])
        #expect(Set(runs[1]).isDisjoint(with: runs[2]))
    }

    /// Hashes crafted to share their leading bits (the hash is unseeded: an attacker computes
    /// such keys offline) all start at one slot. Each client is looked for in at most
    /// `maxProbe` slots and then in the side table, so the work stays a small constant per
    /// request rather than growing with the clients before it; and the sample is still every
    /// client its bucket's final level keeps, with its masks, as a dictionary has them.
    @Test(arguments: [(131_072, 24, 20_000), (4_096, 20, 20_000), (1_000, 18, 5_000)])
    func craftedHashesSharingLeadingBitsCostBoundedWork(maxEntries: Int, zeroBits: Int, clients: Int) {
        let s = ClientSample(maxEntries: maxEntries)
        var random = SplitMix64(state: UInt64(maxEntries + zeroBits))
        var model: [Int: [UInt64: UInt8]] = [:]
        var notes = 0
        func note(_ bucket: Int, _ hash: UInt64, _ bits: UInt8) {
            [UInt8(0x6B)].withUnsafeBytes { s.note(bucket: bucket, hash: hash, key: $0, bits: bits) }
            model[bucket, default: [:]][hash & ClientSample.hashMask, default: 0] |= bits
            notes += 1
        }
        let crafted = (0..<clients).map { _ in random.next() >> UInt64(zeroBits) }
        let other = (0..<clients / 10).map { _ in random.next() }
        for (i, h) in crafted.enumerated() {
            note(1, h, ClientSample.app)
            if i % 3 == 0 { note(0, other[i / 10 % other.count], ClientSample.alert) }
        }
        for (i, h) in crafted.enumerated() where i % 4 == 0 { note(1, h, ClientSample.alert) }
        // Without the bound, each crafted client probed past every earlier one: clients² / 2.
        // Each thinning scans the table and the side table (4 slots a client), a few dozen times.
        let thinWork = maxEntries < clients ? 64 * 4 * maxEntries : 0
        // Each doubling of the table places its entries again (at most maxProbe slots and a
        // side-table place each); the doublings' entries add up to less than the final count.
        let growWork = 2 * (ClientSample.maxProbe + 2) * s.count
        #expect(s.work <= 40 * notes + thinWork + growWork, "work \(s.work) for \(notes) notes")
        if maxEntries == 131_072 { #expect(s.sideCount > 0 && s.level(of: 1) == 0) }
        s.finish()
        var total = 0
        for b in 0..<2 {
            let level = s.level(of: b)
            let expected = (model[b] ?? [:]).filter { ClientSample.keeps($0.key, level: level) }
            let run = Array(s.run(of: b))
            #expect(run == run.sorted())
            #expect(run.count == s.entries(of: b))
            var got: [UInt64: UInt8] = [:]
            for e in run { got[e & ClientSample.hashMask] = UInt8(e & 3) }
            #expect(got.count == run.count)
            #expect(got == expected, "bucket \(b) at level \(level)")
            total += run.count
        }
        #expect(total == s.count && s.count <= maxEntries)
        if maxEntries < clients { #expect(s.level(of: 1) > zeroBits) }
    }
    /// The table starts small and doubles as clients come, each entry placed again: the sample
    /// is what it would be in a table of full size from the start (every client, its masks),
    /// and the table never holds more than half its slots.
    @Test func theTableGrowsAsClientsComeAndKeepsEveryOne() {
        let s = ClientSample(maxEntries: 131_072)
        #expect(s.slotCount == ClientSample.initialSlots)
        var random = SplitMix64(state: 99)
        var model: [Int: [UInt64: UInt8]] = [:]
        var sizes: [Int] = []
        for i in 0..<60_000 {
            let bucket = i % 3
            let hash = random.next()
            let bits = i % 5 == 0 ? ClientSample.alert : ClientSample.app
            for repeatNote in 0..<(i % 7 == 0 ? 2 : 1) {
                let b = repeatNote == 0 ? bits : ClientSample.split
                [UInt8(0x6B)].withUnsafeBytes { s.note(bucket: bucket, hash: hash, key: $0, bits: b) }
                model[bucket, default: [:]][hash & ClientSample.hashMask, default: 0] |= b
            }
            #expect(s.count * 2 <= s.slotCount)
            if sizes.last != s.slotCount { sizes.append(s.slotCount) }
        }
        #expect(sizes == [8_192, 16_384, 32_768, 65_536, 131_072])
        s.finish()
        for b in 0..<3 {
            #expect(s.level(of: b) == 0)
            var got: [UInt64: UInt8] = [:]
            for e in s.run(of: b) { got[e & ClientSample.hashMask] = UInt8(e & 3) }
            #expect(got == model[b] ?? [:])
        }
    }

    /// The sink's way in (``ClientSample/Noter``: the home from the prefetch, the common case
    /// inlined) leaves the same sample as ``ClientSample/note(bucket:hash:key:bits:)``: entries,
    /// levels, side table, work, examples and their order. The notes cover new and repeated
    /// clients, buckets first seen by a note, growth, thinning (a small table), piles of crafted
    /// hashes that fill a probe's every slot, and clients becoming split.
    @Test(arguments: [(131_072, 0), (131_072, 22), (600, 0), (600, 20)])
    func theSinksWayInLeavesTheSameSample(maxEntries: Int, zeroBits: Int) {
        let direct = ClientSample(maxEntries: maxEntries)
        let noted = ClientSample(maxEntries: maxEntries)
        let noter = ClientSample.Noter(noted)
        var random = SplitMix64(state: UInt64(maxEntries + zeroBits))
        let hashes = (0..<3_000).map { _ in random.next() >> UInt64(zeroBits) }
        for i in 0..<30_000 {
            let bucket = Int(random.next() % 5) * (i < 10_000 ? 1 : 7)
            let hash = hashes[Int(random.next() % UInt64(hashes.count))]
            let bits = [ClientSample.app, ClientSample.alert, ClientSample.split][Int(random.next() % 3)]
            let key = Array("client-\(hash % 997)".utf8)
            key.withUnsafeBytes { key in
                direct.note(bucket: bucket, hash: hash, key: key, bits: bits)
                let home = noter.prefetch(bucket: bucket, hash: hash)
                noter.note(bucket: bucket, hash: hash, key: key, bits: bits, home: home)
            }
        }
        #expect(noted.count == direct.count && noted.count > 0)
        #expect(noted.sideCount == direct.sideCount)
        #expect(noted.work == direct.work)
        #expect(noted.bucketCount == direct.bucketCount)
        #expect(noted.examples == direct.examples && !noted.examples.isEmpty)
        for b in 0..<direct.bucketCount {
            #expect(noted.level(of: b) == direct.level(of: b))
            #expect(noted.entries(of: b) == direct.entries(of: b))
        }
        if zeroBits > 0 && maxEntries > 1_000 { #expect(direct.sideCount > 0) }
        if maxEntries < 1_000 { #expect((0..<direct.bucketCount).contains { direct.level(of: $0) > 0 }) }
        direct.finish()
        noted.finish()
        for b in 0..<direct.bucketCount { #expect(Array(noted.run(of: b)) == Array(direct.run(of: b))) }
    }
}
