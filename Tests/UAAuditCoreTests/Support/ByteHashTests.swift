import CUAScan
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The in-memory tables' hash against keys made to collide. ``reference(_:seed:constants:)`` is
/// `ua_hash64` with constants given: with wyhash's public ones the keys below all share a hash
/// (so they are made right); with the ones the process drew, they do not.
@Suite struct ByteHashTests {
    /// wyhash's constants, which `ua_hash64` used before it drew its own.
    static let public3: (UInt64, UInt64, UInt64) = (0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3)

    static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return low ^ high
    }

    static func load(_ k: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(k[at + $1]) << (8 * UInt64($1)) }
    }

    /// `ua_hash64` for keys of 8 bytes or more, with the constants given.
    static func reference(_ k: [UInt8], seed: UInt64, constants c: (UInt64, UInt64, UInt64)) -> UInt64 {
        let n = UInt64(k.count)
        var h = seed ^ mum(seed ^ c.0, c.1) ^ n
        var (a, b): (UInt64, UInt64)
        if k.count <= 16 {
            (a, b) = (load(k, 0), load(k, k.count - 8))
        } else {
            var i = 0
            var h2 = h ^ c.2
            while i + 32 < k.count {
                h = mum(load(k, i) ^ c.1, load(k, i + 8) ^ h)
                h2 = mum(load(k, i + 16) ^ c.2, load(k, i + 24) ^ h2)
                i += 32
            }
            h = mum(h ^ c.1, h2 ^ c.0)
            if i + 16 < k.count {
                h = mum(load(k, i) ^ c.1, load(k, i + 8) ^ h)
                i += 16
            }
            (a, b) = (load(k, k.count - 16), load(k, k.count - 8))
        }
        return mum(c.1 ^ n, mum(a ^ c.1, b ^ h))
    }

    static func word(_ x: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: x >> (8 * UInt64($0))) } }

    static func tableHashes(_ keys: [[UInt8]], seed: UInt64 = 0) -> Set<UInt64> {
        Set(keys.map { key in key.withUnsafeBytes { ByteHash.table($0, seed: seed) } })
    }

    /// The client key's faster hash is the state files' hash, value for value, at every length
    /// (the table replaces two mixes for keys of 8 to 31 bytes only).
    @Test func theClientKeyHashIsTheStateHashAtEveryLength() {
        var random = SplitMix64(state: 5)
        var compared = 0
        for length in 0...80 {
            for _ in 0..<50 {
                let key = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                key.withUnsafeBytes { raw in
                    #expect(
                        ByteHash.hash(raw, shortKeyTerms: ByteHash.shortKeyTerms) == ByteHash.hash(raw), "\(length)")
                }
                compared += 1
            }
        }
        #expect(compared == 81 * 50)
        // Known values (worked out apart, in Python): the hash is written into state files, so
        // neither way may move it.
        for (key, value) in [("203.0.113.9", 0xE2D0_0E8E_ECC4_7F33 as UInt64), ("2001:db8::1", 0xDE6A_48B4_5387_D347)] {
            Array(key.utf8).withUnsafeBytes { raw in
                #expect(ByteHash.hash(raw) == value)
                #expect(ByteHash.hash(raw, shortKeyTerms: ByteHash.shortKeyTerms) == value)
            }
        }
    }

    @Test func theReferenceSeesEveryByte() {
        let key = Array("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15".utf8)
        let h = Self.reference(key, seed: 3, constants: Self.public3)
        var flipped = key
        flipped[40] ^= 1
        #expect(h != Self.reference(flipped, seed: 3, constants: Self.public3))
        #expect(h == Self.reference(key, seed: 3, constants: Self.public3))
    }

    @Test func wordsThatCancelAPublicConstantDoNotCollide() {
        // A word equal to the constant (or one off) zeroed a step's product (or made it 1, with
        // the factors folded back in), whatever the seed: every key that differed elsewhere in
        // that step collided. For 16-byte keys, and for longer ones at the last 16 bytes.
        let s1 = Self.public3.1
        for magic in [s1, s1 ^ 1] {
            let short = (0..<UInt64(1_000)).map { Self.word(magic) + Self.word($0 &* 0x9E37_79B9) }
            let long = (0..<UInt64(1_000)).map {
                Array(repeating: UInt8(0x41), count: 40) + Self.word($0 &* 0x9E37_79B9) + Self.word(magic)
                    + Self.word(0x4242_4242)
            }
            for keys in [short, long] {
                // (Under the plain product only the constant itself collides; one off it did when
                // the factors were folded back in.)
                if magic == s1 {
                    #expect(Set(keys.map { Self.reference($0, seed: 5, constants: Self.public3) }).count == 1)
                }
                #expect(Self.tableHashes(keys).count == 1_000)
                #expect(Self.tableHashes(keys, seed: 12).count == 1_000)
            }
        }
    }

    @Test func keysMadeForThePublicStateDoNotCollide() {
        // With public constants, the state after a 32-byte step can be computed, and a key whose
        // next step's second word equals it zeroes that step: keys that differ only in their first
        // step then share a hash.
        let c = Self.public3
        var keys: [[UInt8]] = []
        for i in 0..<UInt64(500) {
            let first = Self.word(i) + Array(repeating: UInt8(0x42), count: 24)
            let n = UInt64(first.count + 40)
            var h = Self.mum(c.0, c.1) ^ n
            h = Self.mum(i ^ c.1, 0x4242_4242_4242_4242 ^ h)
            let tail = Self.word(0x4343_4343_4343_4343) + Self.word(h) + Array(repeating: UInt8(0x44), count: 24)
            keys.append(first + tail)
        }
        #expect(Set(keys.map { Self.reference($0, seed: 0, constants: c) }).count == 1)
        #expect(Self.tableHashes(keys).count == 500)
    }

    /// Every byte of a key longer than 16 bytes reaches the in-memory tables' hash (the AES-NI
    /// lanes where the processor has them, the multiplies where not), at every length up to a
    /// few 64-byte steps and every position: a byte the lanes or the overlapping last blocks
    /// skipped would give two UAs one hash. The seed and the length count too.
    @Test func everyByteOfALongKeyReachesTheTableHash() {
        var random = SplitMix64(state: 17)
        var compared = 0
        for length in 17...300 {
            let key = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next() | 1) }
            let base = key.withUnsafeBytes { ByteHash.table($0) }
            #expect(key.withUnsafeBytes { ByteHash.table($0, seed: 1) } != base)
            #expect(key.dropLast().withUnsafeBytes { ByteHash.table($0) } != base)
            for position in 0..<length {
                var changed = key
                changed[position] ^= 1 << UInt8(position % 8)
                #expect(changed.withUnsafeBytes { ByteHash.table($0) } != base, "length \(length), byte \(position)")
                compared += 1
            }
        }
        #expect(compared == (17 + 300) * 284 / 2)
    }
}
