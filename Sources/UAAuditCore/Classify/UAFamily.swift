/// The family of a user agent: its shape with every run of digits collapsed to `#`, so that
/// `MyApp/3.2.1 (iPhone; iPhone15,2; iOS 18_1)` and `MyApp/3.2.2 (iPhone; iPhone14,5; iOS 17_6)`
/// are one family, `MyApp/#.#.# (iPhone; iPhone#,#; iOS #_#)`, and a new shape (`iOS 18.1`
/// instead of `iOS 18_1`, a renamed app) is a new family.
public enum UAFamily {
    /// Families are cut to this many bytes (an attacker's 8 KiB UA is one family per shape).
    public static let maxBytes = 256

    /// Writes the family of a decoded UA into `out` (room for ``maxBytes``); returns its length.
    @inline(__always)
    public static func normalize(_ ua: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
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
            if n == maxBytes { break }
        }
        return n
    }

    /// The family of a UA given as bytes.
    public static func of(_ ua: [UInt8]) -> [UInt8] {
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: maxBytes)
        defer { out.deallocate() }
        let n = ua.withUnsafeBytes { normalize($0, into: out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }
}
