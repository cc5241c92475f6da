import CUAScan
import Synchronization

/// A fast 64-bit hash of a byte string: four independent multiply-xorshift lanes over
/// 32-byte blocks, so a 150-byte UA costs a few dozen cycles.
///
/// Not cryptographic: tables that use it stay bounded however the keys collide.
///
/// ``hash(_:seed:)`` is written into state files (client keys, checkpoints, file identity): it
/// must not change without a state version bump. ``table(_:seed:)`` keys in-memory tables only
/// (the UA cache, families, a chunk's alert-class UAs and paths), whose results never depend on
/// hash values, so it is free to be the fastest one.
package enum ByteHash {
    /// The in-memory tables' hash: ``ua_hash64`` (C, two 64×64→128-bit multiplies per 32 bytes,
    /// with constants drawn when the process starts, so that no one can make keys that collide).
    @inline(__always)
    static func table(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        guard let p = bytes.baseAddress else { return ua_hash64(nil, 0, seed) }
        return ua_hash64(p.assumingMemoryBound(to: UInt8.self), bytes.count, seed)
    }

    @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        let n = bytes.count
        guard let p = bytes.baseAddress, n > 0 else { return mix(seed ^ m) }
        if n < 8 {
            var tail: UInt64 = 0
            for i in 0..<n { tail |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(i)) }
            return mix((seed ^ UInt64(n) &* m) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F))
        }
        var a = seed ^ (UInt64(n) &* m)
        var b = a ^ 0x243F_6A88_85A3_08D3
        var c = a ^ 0x1319_8A2E_0370_7344
        var d = a ^ 0xA409_3822_299F_31D0
        var i = 0
        while i + 32 <= n {
            a = (a ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
            b = (b ^ p.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* m
            c = (c ^ p.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* m
            d = (d ^ p.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* m
            a ^= a >> 29
            b ^= b >> 29
            c ^= c >> 29
            d ^= d >> 29
            i += 32
        }
        while i + 8 <= n {
            a = (a ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
            a ^= a >> 29
            i += 8
        }
        if i < n {
            // The last 8 bytes, overlapping what came before (n >= 8 here).
            b = (b ^ p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) &* m
        }
        return mix(a ^ mix(b) ^ (mix(c) &* 3) ^ (mix(d) &* 5))
    }

    @inline(__always)
    package static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension ByteHash {
    /// What ``hash(_:seed:)`` with one seed mixes in for a key of 8 to 31 bytes from the two
    /// lanes that only 32-byte blocks reach: it depends on the seed and the key's length alone,
    /// so it is worked out once, by length (``hash(_:shortKeyTerms:)`` reads it instead of two
    /// mixes). One table per seed for the process (``shortKeyTerms(seed:)``), never written
    /// after it is made, never freed (a process uses one or two seeds).
    struct ShortKeyTerms: @unchecked Sendable {
        fileprivate let values: UnsafeMutablePointer<UInt64>
        let seed: UInt64

        fileprivate init(seed: UInt64) {
            self.seed = seed
            values = .allocate(capacity: 32)
            let m: UInt64 = 0x9E37_79B9_7F4A_7C15
            for n in 0..<32 {
                let a = seed ^ (UInt64(n) &* m)
                values[n] = (mix(a ^ 0x1319_8A2E_0370_7344) &* 3) ^ (mix(a ^ 0xA409_3822_299F_31D0) &* 5)
            }
        }
    }

    static let shortKeyTerms = ShortKeyTerms(seed: 0)
    private static let seededTerms = Mutex<[UInt64: ShortKeyTerms]>([:])

    /// The table of `seed` (the client salt's, ``ClientSalt/seed``).
    static func shortKeyTerms(seed: UInt64) -> ShortKeyTerms {
        if seed == 0 { return shortKeyTerms }
        return seededTerms.withLock { tables in
            if let found = tables[seed] { return found }
            let made = ShortKeyTerms(seed: seed)
            tables[seed] = made
            return made
        }
    }

    /// ``hash(_:seed:)`` with the table's seed, the same value, for the client key hashed on
    /// every line: a key of 8 to 31 bytes (an IP address) takes its length's part from
    /// `terms`, two mixes fewer; any other goes to ``hash(_:seed:)``.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, shortKeyTerms terms: ShortKeyTerms) -> UInt64 {
        let n = bytes.count
        guard n >= 8, n < 32, let p = bytes.baseAddress else { return hash(bytes, seed: terms.seed) }
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        var a = terms.seed ^ (UInt64(n) &* m)
        var b = a ^ 0x243F_6A88_85A3_08D3
        var i = 0
        while i + 8 <= n {
            a = (a ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
            a ^= a >> 29
            i += 8
        }
        if i < n { b = (b ^ p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) &* m }
        return mix(a ^ mix(b) ^ terms.values[n])
    }
}
