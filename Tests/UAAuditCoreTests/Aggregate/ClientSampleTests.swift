import Testing

@testable import UAAuditCore

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
}
