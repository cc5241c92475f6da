/// Turns bytes from a log (UAs, malformed lines) into report text without losing what they were.
///
/// Valid UTF-8 is kept as it is; each byte that is not part of valid UTF-8 becomes `\xHH`.
package enum ReportText {
    package static func render(_ bytes: [UInt8]) -> String {
        // Valid UTF-8 (almost every UA) is the string as it is: Swift's validation rejects what
        // ``scalar(in:at:)`` rejects (overlongs, surrogates, past U+10FFFF, stray bytes).
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        return renderBytewise(bytes)
    }

    /// ``render(_:)`` a scalar at a time (the tests check that the two agree).
    static func renderBytewise(_ bytes: [UInt8]) -> String {
        var out = String()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: i) {
                out.unicodeScalars.append(scalar)
                i += length
            } else {
                out += "\\x" + hex(bytes[i])
                i += 1
            }
        }
        return out
    }

    package static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
    }

    /// The well-formed UTF-8 scalar at `i` (no overlongs, no surrogates), and its length.
    static func scalar(in b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        if length == 3, value < 0x800 { return nil }
        if length == 4, value < 0x10000 || value > 0x10FFFF { return nil }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
