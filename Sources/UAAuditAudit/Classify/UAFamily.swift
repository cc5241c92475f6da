/// The family of a user agent: its shape with every run of digits collapsed to `#`, so that
/// `MyApp/3.2.1 (iPhone; iPhone15,2; iOS 18_1)` and `MyApp/3.2.2 (iPhone; iPhone14,5; iOS 17_6)`
/// are one family, `MyApp/#.#.# (iPhone; iPhone#,#; iOS #_#)`, and a new shape (`iOS 18.1`
/// instead of `iOS 18_1`, a renamed app) is a new family.
package enum UAFamily {
    /// Families are cut to this many bytes (an attacker's 8 KiB UA is one family per shape).
    static let maxBytes = 256

    /// Writes the family of a decoded UA into `out` (cut to its room and to ``maxBytes``);
    /// returns its length.
    @inline(__always)
    static func normalize(_ ua: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let out = buffer.baseAddress else { return 0 }
        let limit = min(buffer.count, maxBytes)
        var n = 0
        if limit == 0 { return 0 }
        var inDigits = false
        for b in ua {
            if b >= 0x30 && b <= 0x39 {
                if inDigits { continue }
                inDigits = true
                out[n] = UInt8(ascii: "#")
            } else {
                inDigits = false
                out[n] = b
            }
            n += 1
            if n == limit { break }
        }
        return n
    }

    /// The family of a UA given as bytes.
    package static func of(_ ua: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: maxBytes)
        let n = ua.withUnsafeBytes { src in out.withUnsafeMutableBufferPointer { normalize(src, into: $0) } }
        return Array(out.prefix(n))
    }
}
