import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Client keys crafted so that their hashes share the leading bits (the client hash is unseeded
/// and invertible for 16-byte keys, so anyone can compute such keys offline) cost the scan
/// about what random keys do, and are counted exactly.
@Suite struct CraftedClientKeysTests {
    static let clients = 20_000
    static let format = #"$remote_addr [$time_local] "$http_user_agent""#

    /// 16-byte keys whose hash (``ByteHash.hash``, the client hash) has its top `zeroBits` bits
    /// 0: the first 8 bytes count, the last 8 are solved for by inverting the hash's steps.
    static func craftedKeys(_ count: Int, zeroBits: Int, seed: UInt64) -> [[UInt8]] {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        func inverse(_ a: UInt64) -> UInt64 {  // of an odd multiplier, mod 2^64 (Newton)
            var x = a
            for _ in 0..<6 { x = x &* (2 &- a &* x) }
            return x
        }
        func unshift(_ y: UInt64, _ s: UInt64) -> UInt64 {  // inverts x ^ (x >> s)
            var x = y
            for _ in 0...(64 / s) { x = y ^ (x >> s) }
            return x
        }
        func mix(_ v: UInt64) -> UInt64 {
            var z = (v ^ (v >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func unmix(_ v: UInt64) -> UInt64 {
            var z = unshift(v, 31) &* inverse(0x94D0_49BB_1331_11EB)
            z = unshift(z, 27) &* inverse(0xBF58_476D_1CE4_E5B9)
            return unshift(z, 30)
        }
        let a0 = UInt64(16) &* m
        let k =
            mix(a0 ^ 0x243F_6A88_85A3_08D3) ^ (mix(a0 ^ 0x1319_8A2E_0370_7344) &* 3)
            ^ (mix(a0 ^ 0xA409_3822_299F_31D0) &* 5)
        /// The client hash of a 16-byte key, as ``ByteHash`` computes it, to check the keys.
        func hash(_ key: [UInt8]) -> UInt64 {
            var a = a0
            for w in 0..<2 {
                a = (a ^ key.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8 * w, as: UInt64.self) }) &* m
                a ^= a >> 29
            }
            return mix(a ^ k)
        }
        let bad: Set<UInt8> = [0, 0x0A, 0x0D, 0x20, 0x22, 0x5C]
        var random = seed
        var keys: [[UInt8]] = []
        var i = 0
        while keys.count < count {
            let first = Array(String(format: "k%07d", i).utf8)
            i += 1
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let target = (random ^ (random >> 29)) >> UInt64(zeroBits)
            let w1 = first.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            var a1 = (a0 ^ w1) &* m
            a1 ^= a1 >> 29
            let a2 = unmix(target) ^ k
            let w2 = unshift(a2, 29) &* inverse(m) ^ a1
            let second = withUnsafeBytes(of: w2.littleEndian) { Array($0) }
            if second.contains(where: bad.contains) { continue }
            precondition(hash(first + second) == target, "crafting the keys went wrong")
            keys.append(first + second)
        }
        return keys
    }

    /// Every client one app request; every fourth one also an old SDK's request (split).
    static func writeLog(_ keys: [[UInt8]], to path: String) throws {
        let app = Array(#" [01/Mar/2024:10:01:00 +0000] "MyApp/5.12.1 (iPhone; iOS 17_4)""#.utf8) + [0x0A]
        let sdk = Array(#" [01/Mar/2024:10:20:00 +0000] "YourSDK/1.0 com.apple.CFNetwork/1494.0.7""#.utf8) + [0x0A]
        var bytes: [UInt8] = []
        for (i, key) in keys.enumerated() {
            bytes += key + app
            if i % 4 == 0 { bytes += key + sdk }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func craftedClientKeysCostAboutWhatRandomOnesDoAndCountExactly() throws {
        let crafted = Self.craftedKeys(Self.clients, zeroBits: 12, seed: 17)
        var random: UInt64 = 17
        let plain = (0..<Self.clients).map { i in
            Array(String(format: "k%07d", i).utf8)
                + (0..<8).map { _ in
                    random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(0x41 + (random >> 33) % 26)
                }
        }
        let dir = try Scratch()
        var seconds: [Double] = []
        for (name, keys) in [("random", plain), ("crafted", crafted)] {
            let log = dir.path("\(name).log")
            try Self.writeLog(keys, to: log)
            let clock = ContinuousClock()
            var best = Duration.seconds(1_000)
            for _ in 0..<2 {
                let start = clock.now
                let result = try MeasuredRun.run(
                    ["scan", "--json", "-j", "1", "--log-format", Self.format, log], stdinFile: "/dev/null")
                best = min(best, clock.now - start)
                #expect(result.status == 0, "\(result.stderr)")
                let report = try ReportEncoding.decode(result.stdout)
                let c = try #require(report.hours.first?.clients)
                #expect(report.hours.count == 1)
                // The model: every client exact (fewer than the 131,072 an hour keeps).
                #expect(c.exact)
                #expect((c.app, c.alert, c.split) == (20_000, 5_000, 5_000), "\(name)")
            }
            seconds.append(Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18)
        }
        print("20,000 client keys, random / crafted: \(seconds[0]) / \(seconds[1]) s")
        // Before the bound each crafted client probed past every earlier one (clients² / 2).
        #expect(seconds[1] <= 4 * seconds[0] + 1.5, "random \(seconds[0]) s, crafted \(seconds[1]) s")
    }
}
