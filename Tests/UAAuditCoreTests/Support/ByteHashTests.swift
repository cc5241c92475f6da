import CUAScan
import Testing

@testable import UAAuditCore

/// The in-memory tables' hash against keys made to collide (see ``ByteHash/tableKey``).
@Suite struct ByteHashTests {
    /// `ua_hash64`'s constant that the first word of each 16-byte step is xored with.
    static let s1: UInt64 = 0xE703_7ED1_A0B4_28DB

    static func word(_ x: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: x >> (8 * UInt64($0))) } }

    static func hashes(_ keys: [[UInt8]], seed: UInt64) -> Set<UInt64> {
        Set(keys.map { key in key.withUnsafeBufferPointer { ua_hash64($0.baseAddress, $0.count, seed) } })
    }

    @Test func aWordThatCancelsItsConstantDoesNotEraseTheOtherWords() {
        // A first word equal to the constant made that step's product 0 whatever the second
        // word, so these keys all had one hash, whatever the seed.
        for seed: UInt64 in [0, 1, 0x0123_4567_89AB_CDEF] {
            let short = (0..<UInt64(1_000)).map { Self.word(Self.s1) + Self.word($0 &* 0x9E37_79B9) }
            #expect(Self.hashes(short, seed: seed).count == 1_000)
            let long = (0..<UInt64(1_000)).map {
                Self.word(Self.s1) + Self.word($0 &* 0x9E37_79B9) + Array(repeating: UInt8(0x41), count: 84)
            }
            #expect(Self.hashes(long, seed: seed).count == 1_000)
        }
    }

    @Test func keysMadeForTheUnkeyedStateDoNotCollideInTheTables() {
        // Unkeyed, the state after a step can be computed, and a key whose next word equals it
        // zeroes the product: keys that differ only before that word then have one hash (with or
        // without the factors folded back in, the state is gone). The tables key the hash with a
        // secret per process, so the state cannot be known.
        var keys: [[UInt8]] = []
        for i in 0..<UInt64(500) {
            let prefix = Self.word(i) + Array(repeating: UInt8(0x42), count: 24)
            // The state after the first 32-byte step, as ua_hash64 computes it for seed 0.
            let n = UInt64(prefix.count + 40)
            let s0: UInt64 = 0xA076_1D64_78BD_642F
            var h = Self.mum(s0, Self.s1) ^ n
            h = Self.mum(i ^ Self.s1, 0x4242_4242_4242_4242 ^ h)
            let tail = Self.word(0x4343_4343_4343_4343) + Self.word(h) + Array(repeating: UInt8(0x44), count: 24)
            keys.append(prefix + tail)
        }
        // The attack works on the unkeyed hash (so the keys are made right) ...
        #expect(Self.hashes(keys, seed: 0).count == 1)
        // ... and not on the tables' one.
        #expect(Set(keys.map { key in key.withUnsafeBytes { ByteHash.table($0) } }).count == 500)
    }

    static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return low ^ high ^ a ^ b
    }

    @Test func theTablesHashIsKeyedPerProcess() {
        let key = Array("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)".utf8)
        let keyed = key.withUnsafeBytes { ByteHash.table($0, seed: 7) }
        let plain = key.withUnsafeBufferPointer { ua_hash64($0.baseAddress, $0.count, 7) }
        let withKey = key.withUnsafeBufferPointer { ua_hash64($0.baseAddress, $0.count, 7 ^ ByteHash.tableKey) }
        #expect(keyed == withKey)
        #expect(ByteHash.tableKey != 0)
        #expect(keyed != plain)
    }
}
