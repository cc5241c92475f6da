/// A fast 64-bit hash of a byte string (8 bytes a step, multiply-xorshift mixing).
///
/// Not cryptographic: tables that use it stay bounded however the keys collide.
public enum ByteHash {
    @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = seed ^ (UInt64(bytes.count) &* m)
        guard let p = bytes.baseAddress else { return mix(h) }
        let n = bytes.count
        var i = 0
        while i + 8 <= n {
            h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
            h ^= h >> 29
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* m
        }
        return mix(h)
    }

    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
