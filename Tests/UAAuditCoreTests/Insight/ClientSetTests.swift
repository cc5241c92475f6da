import Foundation
import Testing

@testable import UAAuditCore

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
