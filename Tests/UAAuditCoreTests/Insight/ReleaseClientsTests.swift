import FoundationEssentials
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The hour's release sample: exact below its bound, a hash-threshold sample above it that is
/// the same however its clients are split into parts, frozen into figures, and read back.
@Suite struct ReleaseClientsTests {
    static func client(_ i: Int, split: Bool) -> ReleaseClients.Client {
        ReleaseClients.Client(
            mask: split ? ClientSample.split : ClientSample.app, versions: [i % 3 == 0 ? "3.3.0" : "3.2.1"],
            families: split ? ["F"] : [])
    }

    static func clients(_ range: Range<Int>, seed: UInt64 = 7) -> [UInt64: ReleaseClients.Client] {
        var random = SplitMix64(state: seed)
        var out: [UInt64: ReleaseClients.Client] = [:]
        for i in 0..<range.upperBound {
            let hash = random.next()
            if range.contains(i) { out[hash] = client(i, split: i % 3 == 0) }
        }
        return out
    }

    @Test func exactBelowTheBound() {
        var set = ReleaseClients()
        set.add(Self.clients(0..<510), level: 0, approximate: false)
        let t = set.tallies
        #expect(t.level == 0)
        #expect(t.appClients == 510)
        #expect(t.versions == ["3.3.0": 170, "3.2.1": 340])
        #expect(t.families["F"] == ReleaseTallies.Family(splitClients: 170, versions: ["3.3.0": 170]))
    }

    @Test func partsInAnyOrderMakeTheSameSample() {
        var whole = ReleaseClients()
        whole.add(Self.clients(0..<10_000), level: 0, approximate: false)
        var a = ReleaseClients()
        a.add(Self.clients(0..<4_000), level: 0, approximate: false)
        var b = ReleaseClients()
        b.add(Self.clients(4_000..<10_000), level: 0, approximate: false)
        var ab = a
        ab.merge(b)
        var ba = b
        ba.merge(a)
        #expect(whole.level == 5)
        #expect(whole.clients.count <= ReleaseClients.limit)
        #expect(ab == whole)
        #expect(ba == whole)
        // The estimate is near the truth (3,334 split clients of 10,000).
        let split = whole.tallies.families["F"]!.splitClients << Int64(whole.level)
        #expect(abs(split - 3_334) < 900)
    }

    @Test func aClientSeenInTwoPartsJoinsItsVersionsAndFamilies() {
        var set = ReleaseClients()
        set.add([42: ReleaseClients.Client(mask: ClientSample.app, versions: ["3.3.0"])], level: 0, approximate: false)
        set.add([42: ReleaseClients.Client(mask: ClientSample.alert, families: ["F"])], level: 0, approximate: false)
        #expect(
            set.clients[42] == ReleaseClients.Client(mask: ClientSample.split, versions: ["3.3.0"], families: ["F"]))
        #expect(set.tallies.families["F"]?.versions == ["3.3.0": 1])
    }

    @Test func aFrozenHourAddsFiguresAndReadsBack() throws {
        var set = ReleaseClients()
        set.add(Self.clients(0..<30), level: 0, approximate: false)
        let encoded = try JSONEncoder().encode(set)
        #expect(try JSONDecoder().decode(ReleaseClients.self, from: encoded) == set)
        set.freeze()
        #expect(set.clients.isEmpty)
        set.add(Self.clients(30..<60), level: 0, approximate: false)
        #expect(set.tallies.appClients == 60)
        #expect(set.tallies.families["F"]?.splitClients == 20)
        let frozen = try JSONEncoder().encode(set)
        #expect(try JSONDecoder().decode(ReleaseClients.self, from: frozen) == set)
    }

    @Test func aStateWithTooManyClientsOrABadLevelIsRefused() throws {
        let empty = Data(#"{"sample":{"level":0,"versions":[],"families":[],"records":""}}"#.utf8)
        #expect(try JSONDecoder().decode(ReleaseClients.self, from: empty) == ReleaseClients())
        let bad = Data(#"{"sample":{"level":64,"versions":[],"families":[],"records":""}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ReleaseClients.self, from: bad) }
        let notBase64 = Data(#"{"sample":{"level":0,"versions":[],"families":[],"records":"%%"}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ReleaseClients.self, from: notBase64) }
        // One client (id 1, 63 zero bits, app) whose version index is past the list.
        let record = Data([1, 0, 0, 0, 0, 0, 0, 0, 63, 1, 1, 0, 5, 0]).base64EncodedString()
        let badIndex = Data(
            #"{"sample":{"level":0,"versions":["3.3.0"],"families":[],"records":"\#(record)"}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ReleaseClients.self, from: badIndex) }
    }

    @Test func talliesAddAtTheCoarserLevel() {
        var a = ReleaseTallies(level: 1)
        a.appClients = 10
        a.versions = ["3.3.0": 10]
        var b = ReleaseTallies(level: 2)
        b.appClients = 4
        b.versions = ["3.3.0": 2, "3.2.1": 2]
        a.add(b)
        #expect(a.level == 2)
        #expect(a.appClients == 9)
        #expect(a.versions == ["3.3.0": 7, "3.2.1": 2])
    }
}
