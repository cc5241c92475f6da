import Synchronization
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The pipeline hands chunks to workers and gives them back in order, with one chunk more in
/// flight than there are workers, unless a heavy tally waits for its merge: then that tally
/// takes two places, so that memory holds no more heavy tallies than it did with one place each.
@Suite struct ChunkPipelineTests {
    /// A tally holding `keyBytes` of alert-class UA keys (heavy past 1 MiB).
    static func tally(keyBytes: Int) -> Tally {
        let tally = Tally(classCount: 5, sampleLimit: 10, alertTableEntries: 64, alertArenaBytes: 4 << 20)
        var left = keyBytes
        var i = 0
        while left > 0 {
            let key = [UInt8](repeating: UInt8(65 + i % 26), count: min(left, 60_000)) + Array("\(i)".utf8)
            _ = key.withUnsafeBytes { tally.alertUAs.insert($0, hash: ByteHash.table($0)) }
            left -= key.count
            i += 1
        }
        return tally
    }

    /// How many chunks were taken and not yet released, at most, when the merging thread
    /// releases each chunk only after a while (so that the workers run ahead as far as they may).
    static func mostInFlight(threads: Int, heavy: [Bool]) -> (most: Int, order: [Int64]) {
        let state = Mutex((alive: 0, most: 0))
        let pipeline = ChunkPipeline<Int>(threads: threads)
        var planned = 0
        pipeline.start(
            plan: {
                guard planned < heavy.count else { return nil }
                defer { planned += 1 }
                return planned
            },
            read: { _, chunk in
                state.withLock { s in
                    s.alive += 1
                    s.most = max(s.most, s.alive)
                }
                return ChunkResult(
                    tally: tally(keyBytes: heavy[chunk] ? 1_200_000 : 1_000), failure: nil, consumed: Int64(chunk))
            })
        var order: [Int64] = []
        var index = 0
        while let (chunk, result) = pipeline.take(index) {
            #expect(chunk == index)
            order.append(result.consumed)
            var spin = 0
            for i in 0..<300_000 { spin &+= i }
            if spin == 42 { order.append(-1) }
            state.withLock { $0.alive -= 1 }
            pipeline.release(result, index: index)
            index += 1
        }
        pipeline.finish()
        return (state.withLock { $0.most }, order)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [2, 3])
    func lightTalliesTakeOnePlaceAndHeavyOnesTwo(threads: Int) {
        #expect(!ChunkResult(tally: Self.tally(keyBytes: 1_000), failure: nil, consumed: 0).heavy)
        #expect(ChunkResult(tally: Self.tally(keyBytes: 1_200_000), failure: nil, consumed: 0).heavy)
        let chunks = 30
        let inOrder = (0..<Int64(chunks)).map { $0 }
        // Light: a worker reads on while the chunk it finished waits for its merge.
        let light = Self.mostInFlight(threads: threads, heavy: Array(repeating: false, count: chunks))
        #expect(light.order == inOrder)
        #expect(light.most == threads + 1)
        // Heavy: no more tallies held than with one place per worker.
        let heavy = Self.mostInFlight(threads: threads, heavy: Array(repeating: true, count: chunks))
        #expect(heavy.order == inOrder)
        #expect(heavy.most <= threads)
        // Mixed, in runs and alone: in order, never past the places, and no deadlock.
        let mixed = Self.mostInFlight(
            threads: threads, heavy: (0..<chunks).map { $0 % 7 == 2 || $0 % 7 == 3 || $0 % 11 == 5 })
        #expect(mixed.order == inOrder)
        #expect(mixed.most <= threads + 1)
    }
}

/// The pipeline asks its plan for items one at a time, in order, until the plan runs out.
@Suite struct ChunkPipelinePlanTests {
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3])
    func itemsComeBackInPlanOrderAndTheEndIsSaid(threads: Int) {
        for count in [0, 1, 5, 40] {
            let pipeline = ChunkPipeline<String>(threads: threads)
            var calls = 0
            pipeline.start(
                plan: {
                    defer { calls += 1 }
                    return calls < count ? "item \(calls)" : nil
                },
                read: { _, item in ChunkResult(tally: nil, failure: nil, consumed: Int64(item.utf8.count)) })
            var taken: [String] = []
            var index = 0
            while let (item, result) = pipeline.take(index) {
                #expect(result.consumed == Int64(item.utf8.count))
                #expect(!result.heavy)
                taken.append(item)
                pipeline.release(result, index: index)
                index += 1
            }
            #expect(pipeline.take(index) == nil)
            pipeline.finish()
            #expect(taken == (0..<count).map { "item \($0)" })
            // Once per item, and once to find the end.
            #expect(calls == count + 1)
        }
    }
}
