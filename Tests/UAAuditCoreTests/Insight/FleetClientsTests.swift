import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Fleet-wide split clients from hosts' report samples (``FleetClients``): exact below the
/// bound, within the stated error above it, and salted so that hosts agree only with one salt.
@Suite struct FleetClientsTests {
    /// One host's hour: client key → kinds (1 app, 2 alert), as its ``ClientSet`` and report sample.
    static func report(_ clients: [String: UInt8], salt: ClientSalt) -> Report.ClientsEntry {
        let hashed = clients.map { key, mask in
            (Array(key.utf8).withUnsafeBytes { ByteHash.hash($0, seed: salt.seed) } & ClientSample.hashMask, mask)
        }.sorted { $0.0 < $1.0 }
        var set = ClientSet()
        for (hash, mask) in hashed { set.add(hash: hash, mask: mask, level: set.level) }
        var entry = InsightReport.clientsEntry(
            counts: set.counts, classes: ["urlsession": 1 << 40, "inconsistent": 1 << 40], key: "$remote_addr",
            appClasses: ["urlsession"], alertClass: "inconsistent", examples: [])
        entry.sample = Report.ClientSampleEntry(set.reportSample!, salt: salt)
        return entry
    }

    static func merged(_ reports: [Report.ClientsEntry]) -> Report.ClientsEntry {
        var fleet = FleetClients()
        for r in reports {
            let added = fleet.add(r.sample!, examples: r.examples)
            #expect(added)
        }
        return InsightReport.clientsEntry(
            counts: fleet.counts, classes: ["urlsession": 1 << 40, "inconsistent": 1 << 40], key: "$remote_addr",
            appClasses: ["urlsession"], alertClass: "inconsistent", examples: fleet.examples)
    }

    /// A deterministic fleet: `clients` addresses, each on two of `hosts` hosts (the balancer's
    /// spread). Every client sends the app's UA; every 40th sends the inconsistent one on its
    /// second host only (split across hosts), every 200th on its first host too (split on one
    /// host). Returns each host's clients and the true fleet-wide counts (app, alert, split).
    static func fleet(clients: Int, hosts: Int) -> (hosts: [[String: UInt8]], app: Int64, alert: Int64, split: Int64) {
        var out = Array(repeating: [String: UInt8](), count: hosts)
        var state: UInt64 = 0x5EED
        var (app, alert, split): (Int64, Int64, Int64) = (0, 0, 0)
        for c in 0..<clients {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let first = Int(state >> 33) % hosts
            let second = (first + 1 + Int((state >> 13) % UInt64(hosts - 1))) % hosts
            let key = "10.\(c >> 16).\((c >> 8) & 255).\(c & 255)"
            out[first][key, default: 0] |= ClientSample.app
            var mask = ClientSample.app
            if c % 40 == 0 {
                out[second][key, default: 0] |= ClientSample.alert
                mask |= ClientSample.alert
            } else {
                out[second][key, default: 0] |= ClientSample.app
            }
            if c % 200 == 1 {
                out[first][key, default: 0] |= ClientSample.alert
                mask |= ClientSample.alert
            }
            app += 1
            if mask & ClientSample.alert != 0 { alert += 1 }
            if mask == ClientSample.split { split += 1 }
        }
        return (out, app, alert, split)
    }

    @Test func aSmallFleetIsCountedExactly() {
        let f = Self.fleet(clients: 3_000, hosts: 4)
        let reports = f.hosts.map { Self.report($0, salt: .standard) }
        // No host sees the clients split across hosts: each sees only its share of the 15.
        #expect(reports.map(\.split).reduce(0, +) == 15)
        let m = Self.merged(reports)
        #expect([m.app, m.alert, m.split] == [3_000, 90, 90])
        #expect([f.app, f.alert, f.split] == [3_000, 90, 90])
        #expect(m.exact)
        #expect(m.splitError == 0)
    }

    /// 4 hosts × 200,000 clients an hour (400,000 clients, each on two hosts): every host
    /// samples, the union is thinned to the bound again, and the estimate is within three of
    /// its stated standard errors of the truth (the bound docs/merge.md states).
    @Test func aLargeFleetIsEstimatedWithinItsStatedError() {
        let f = Self.fleet(clients: 400_000, hosts: 4)
        #expect(f.hosts.map(\.count).allSatisfy { (190_000...210_000).contains($0) })
        let reports = f.hosts.map { Self.report($0, salt: .standard) }
        #expect(reports.allSatisfy { !$0.exact && $0.sample!.records()!.count <= ClientSet.reportSampleLimit })
        let m = Self.merged(reports)
        #expect(!m.exact)
        #expect(m.sampleRate == 1.0 / 128)
        #expect(f.split == 12_000)
        #expect(abs(Double(m.split - f.split)) <= 3 * m.splitError)
        #expect(m.splitError > 0 && m.splitError < 0.15 * Double(f.split))
        #expect(abs(Double(m.app - f.app)) <= 0.1 * Double(f.app))
    }

    /// Hosts with different salts do not recognise one client: the union counts it twice and
    /// finds no split (merge refuses them, ``MergeError/differentSalts``); with one salt, it is one.
    @Test func oneClientIsOneIdOnlyUnderOneSalt() {
        let one = ClientSalt(bytes: Array("a fleet's own salt, 32 bytes....".utf8))
        let other = ClientSalt(bytes: Array("another fleet's salt, 32 bytes..".utf8))
        let a = Self.report(["192.0.2.7": ClientSample.app], salt: one)
        let b = Self.report(["192.0.2.7": ClientSample.alert], salt: one)
        let c = Self.report(["192.0.2.7": ClientSample.alert], salt: other)
        #expect([Self.merged([a, b]).app, Self.merged([a, b]).split] == [1, 1])
        #expect([Self.merged([a, c]).app, Self.merged([a, c]).alert, Self.merged([a, c]).split] == [1, 1, 0])
        #expect(one.fingerprint != other.fingerprint)
        #expect(one.seed != other.seed && ClientSalt.standard.seed == 0)
        #expect(a.sample?.clients != Self.report(["192.0.2.7": ClientSample.app], salt: .standard).sample?.clients)
    }

    /// The default salt keys clients exactly as uaaudit always did (state files and examples
    /// stay valid): its per-line hash is the unseeded one, its examples the plain SHA-256.
    @Test func theDefaultSaltKeepsTheOldHashAndExamples() {
        let key = Array("203.0.113.9".utf8)
        let terms = ByteHash.shortKeyTerms(seed: 0)
        #expect(
            key.withUnsafeBytes { ByteHash.hash($0, shortKeyTerms: terms) } == key.withUnsafeBytes { ByteHash.hash($0) }
        )
        let seeded = ByteHash.shortKeyTerms(seed: 12345)
        #expect(
            key.withUnsafeBytes { ByteHash.hash($0, shortKeyTerms: seeded) }
                == key.withUnsafeBytes { ByteHash.hash($0, seed: 12345) })
        #expect(ClientSalt.standard.display("203.0.113.9") == "#" + String(SHA256.hex(SHA256.hash(key)).prefix(12)))
    }

    /// The report ids' pseudo-random function is SipHash-2-4: the reference vector of its
    /// paper (key 00…0f, message 00…07).
    @Test func reportIDsAreSipHash24() {
        let k0 = UInt64(littleEndian: 0x0706_0504_0302_0100)
        let k1 = UInt64(littleEndian: 0x0f0e_0d0c_0b0a_0908)
        #expect(SipHash.hash(0x0706_0504_0302_0100, k0: k0, k1: k1) == 0x93f5_f579_9a93_2462)
    }

    @Test func aDamagedSampleIsRefused() {
        var fleet = FleetClients()
        let notBase64 = fleet.add(Report.ClientSampleEntry(level: 0, clients: "not base64!"), examples: [])
        let badLevel = fleet.add(Report.ClientSampleEntry(level: 64, clients: ""), examples: [])
        #expect(!notBase64 && !badLevel)
        // A record whose zero bits are under the level: not a client the level keeps.
        let record = Data([1, 2, 3, 4, 5, 6, 7, 8, UInt8(2 << 2 | 1)]).base64EncodedString()
        #expect(Report.ClientSampleEntry(level: 3, clients: record).records() == nil)
        #expect(Report.ClientSampleEntry(level: 2, clients: record).records() == [0x0807_0605_0403_0201: 9])
        // Records out of id order, or more than an hour's sample holds, are not a sample.
        func records(_ ids: [UInt64]) -> String {
            var bytes: [UInt8] = []
            for id in ids {
                withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(1)
            }
            return Data(bytes).base64EncodedString()
        }
        #expect(Report.ClientSampleEntry(level: 0, clients: records([2, 1])).records() == nil)
        #expect(Report.ClientSampleEntry(level: 0, clients: records([1, 1])).records() == nil)
        #expect(Report.ClientSampleEntry(level: 0, clients: records(Array(1...4_096))).records()?.count == 4_096)
        #expect(Report.ClientSampleEntry(level: 0, clients: records(Array(1...4_097))).records() == nil)
    }

    /// The coarsest level a sample may have still gives a positive rate and error (2^63 does
    /// not fit an Int64), and a sampled count of 0 is not claimed exact.
    @Test func ratesAndErrorsAtEveryLevel() {
        #expect(ClientCounts(level: 63).rate == 0x1p-63)
        #expect(ClientCounts(level: 0).rate == 1)
        #expect(ClientCounts(level: 0).standardError(0) == 0)
        #expect(ClientCounts(level: 1).standardError(0) == (0.5).squareRoot() / 0.5)
        #expect(ClientCounts(level: 63).standardError(5) > 0)
        #expect(ClientCounts(level: 63).standardError(5).isFinite)
    }
}
