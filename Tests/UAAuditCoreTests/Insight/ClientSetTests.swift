import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ClientSetTests {
    @Test func mergingTwoPartsOfAnHourCountsEachClientOnce() {
        var a = ClientSet()
        var b = ClientSet()
        for h in UInt64(1)...10 { a.add(hash: h << 40, mask: ClientSample.app, level: 0) }
        for h in UInt64(6)...12 { b.add(hash: h << 40, mask: ClientSample.alert, level: 0) }
        a.merge(b)
        #expect(a.counts == ClientCounts(level: 0, app: 10, alert: 7, split: 5))
    }

    @Test func aCoarserPartDropsWhatItsLevelDoesNotKeep() {
        var a = ClientSet()
        a.add(hash: 1, mask: ClientSample.app, level: 0)  // top bit 0: kept at level 1
        a.add(hash: 1 << 63, mask: ClientSample.app, level: 0)  // top bit 1: dropped at level 1
        var b = ClientSet()
        b.sample(atLevel: 1)
        a.merge(b)
        #expect(a.level == 1)
        #expect(a.counts == ClientCounts(level: 1, app: 1))
        #expect(a.counts.estimate(1) == 2)
    }

    @Test func itRoundTripsThroughJSONAndFreezesToItsCounts() throws {
        var set = ClientSet()
        for h in UInt64(0)..<300 { set.add(hash: h &* 0x9E37_79B9_7F4A_7C15, mask: UInt8(h % 3 + 1), level: 0) }
        set.addExample("#abc")
        let data = try JSONEncoder().encode(set)
        let back = try JSONDecoder().decode(ClientSet.self, from: data)
        #expect(back == set)
        var frozen = set
        frozen.freeze()
        #expect(frozen.masks.isEmpty)
        #expect(frozen.counts == set.counts)
        #expect(try JSONDecoder().decode(ClientSet.self, from: JSONEncoder().encode(frozen)) == frozen)
    }

    @Test(arguments: [#"{"level":0,"clients":"AAAA"}"#, #"{"level":99,"clients":""}"#, #"{"level":0,"clients":"*"}"#])
    func corruptClientRecordsAreRefused(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ClientSet.self, from: Data(json.utf8)) }
    }
}

extension ClientCounts {
    init(level: Int, app: Int64 = 0, alert: Int64 = 0, split: Int64 = 0) {
        self.init(level: level)
        (self.app, self.alert, self.split) = (app, alert, split)
    }
}

/// A sampled estimate is capped at what the hour's requests allow; an exact count never is.
@Suite struct ClientEstimateCapTests {
    @Test func anEstimateIsCappedAtItsLimitOnlyWhenSampled() {
        let c = ClientCounts(level: 21)
        #expect(c.estimate(79_842) == 167_440_809_984)
        #expect(c.estimate(79_842, atMost: 90_000) == 90_000)
        #expect(c.estimate(0, atMost: 90_000) == 0)
        #expect(c.estimate(1, atMost: 2_097_152) == 2_097_152)
        #expect(c.estimate(1, atMost: 2_097_153) == 2_097_152)
        #expect(c.estimate(1, atMost: 2_097_151) == 2_097_151)
        #expect(c.estimate(5, atMost: 0) == 0)
        // No overflow at the coarsest levels.
        #expect(ClientCounts(level: 63).estimate(5, atMost: 100) == 100)
        #expect(ClientCounts(level: 62).estimate(Int64.max, atMost: Int64.max) == Int64.max)
        // An exact count is what was counted.
        #expect(ClientCounts(level: 0).estimate(7, atMost: 3) == 7)
    }

    /// The reviewer's case: 79,842 crafted keys, all kept at sample rate 2^-21, each split, in an
    /// hour of 160,000 requests. Uncapped, `app` was 167,440,809,984.
    @Test func craftedKeysCannotClaimMoreClientsThanRequests() throws {
        var set = ClientSet()
        for i in UInt64(1)...79_842 { set.add(hash: i << 20, mask: ClientSample.split, level: 21) }
        #expect(set.counts == ClientCounts(level: 21, app: 79_842, alert: 79_842, split: 79_842))
        let configuration = ScanConfiguration(format: try BuiltinFormats.named("combined"), rules: RuleSet.builtin())
        let classes: [String: Int64] = ["urlsession": 85_000, "webview": 5_000, "inconsistent": 70_000]
        let entry = InsightReport.clientsEntry(set, classes: classes, configuration: configuration)
        #expect(!entry.exact)
        #expect(entry.sampleRate == 1.0 / 2_097_152)
        #expect(entry.app == 90_000)
        #expect(entry.alert == 70_000)
        #expect(entry.split == 70_000)
        #expect(entry.splitShare == 70_000.0 / 90_000.0)
    }

    /// An ordinary sample is far below its limits: the figures are `sampled × 2^level`, as before.
    @Test func anOrdinaryEstimateIsUnchanged() throws {
        var set = ClientSet()
        set.add(hash: 1 << 10, mask: ClientSample.app, level: 1)
        set.add(hash: 2 << 10, mask: ClientSample.app, level: 1)
        set.add(hash: 3 << 10, mask: ClientSample.split, level: 1)
        set.add(hash: 4 << 10, mask: ClientSample.alert, level: 1)
        let configuration = ScanConfiguration(format: try BuiltinFormats.named("combined"), rules: RuleSet.builtin())
        let classes: [String: Int64] = ["urlsession": 100, "inconsistent": 10]
        let entry = InsightReport.clientsEntry(set, classes: classes, configuration: configuration)
        #expect((entry.app, entry.alert, entry.split) == (6, 4, 2))
        #expect(entry.splitShare == 1.0 / 3.0)
        #expect(entry.splitError == set.counts.standardError(1))
    }
}
