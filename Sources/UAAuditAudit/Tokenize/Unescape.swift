import UAAuditInput

/// Turns a field as nginx logged it back into the bytes nginx saw.
enum Unescape {
    /// Decodes `source` (escaped with `mode`) into `destination`, stopping where it is full.
    /// Returns the decoded length: never more than `destination.count`, nor than `source.count`
    /// (a byte sequence that would not fit whole is not written).
    static func decode(
        _ source: UnsafeRawBufferPointer, mode: EscapeMode, into destination: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        guard let d = destination.baseAddress else { return 0 }
        let capacity = destination.count
        switch mode {
        case .none:
            let n = min(source.count, capacity)
            if n > 0 { d.update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n) }
            return n
        case .default: return decodeDefault(source, into: d, capacity: capacity)
        case .json: return decodeJSON(source, into: d, capacity: capacity)
        }
    }

    /// Decodes into a new array (for reports and tests, not the hot path).
    static func decode(_ bytes: [UInt8], mode: EscapeMode) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes.count)
        let n = bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBufferPointer { decode(src, mode: mode, into: $0) }
        }
        out.removeLast(out.count - n)
        return out
    }

    /// `\xHH` (either case of hex) is one byte; anything else stands for itself.
    private static func decodeDefault(_ s: UnsafeRawBufferPointer, into d: UnsafeMutablePointer<UInt8>, capacity: Int)
        -> Int
    {
        var i = 0
        var o = 0
        let n = s.count
        while i < n, o < capacity {
            let b = s[i]
            if b == 0x5C, i + 4 <= n, s[i + 1] == 0x78,
                let hi = hex(s[i + 2]), let lo = hex(s[i + 3])
            {
                d[o] = hi << 4 | lo
                i += 4
            } else {
                d[o] = b
                i += 1
            }
            o += 1
        }
        return o
    }

    private static func decodeJSON(_ s: UnsafeRawBufferPointer, into d: UnsafeMutablePointer<UInt8>, capacity: Int)
        -> Int
    {
        var i = 0
        var o = 0
        let n = s.count
        while i < n, o < capacity {
            let b = s[i]
            guard b == 0x5C, i + 1 < n else {
                d[o] = b
                o += 1
                i += 1
                continue
            }
            let e = s[i + 1]
            switch e {
            case 0x22, 0x5C, 0x2F: d[o] = e
            case 0x6E: d[o] = 0x0A
            case 0x72: d[o] = 0x0D
            case 0x74: d[o] = 0x09
            case 0x62: d[o] = 0x08
            case 0x66: d[o] = 0x0C
            case 0x75:
                if let scalar = unicodeEscape(s, at: i) {
                    guard o + utf8Length(scalar.value) <= capacity else { return o }
                    o += writeUTF8(scalar.value, into: d + o)
                    i += scalar.length
                    continue
                }
                d[o] = b
                o += 1
                i += 1
                continue
            default:
                d[o] = b
                o += 1
                i += 1
                continue
            }
            o += 1
            i += 2
        }
        return o
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, starting at `i`: the code point and how many bytes it took.
    private static func unicodeEscape(_ s: UnsafeRawBufferPointer, at i: Int) -> (value: UInt32, length: Int)? {
        guard let high = hex4(s, i + 2) else { return nil }
        if high >= 0xD800, high < 0xDC00, i + 12 <= s.count, s[i + 6] == 0x5C, s[i + 7] == 0x75,
            let low = hex4(s, i + 8), low >= 0xDC00, low < 0xE000
        {
            return (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), 12)
        }
        if high >= 0xD800, high < 0xE000 { return nil }  // a lone surrogate: keep the text as it is
        return (high, 6)
    }

    private static func hex4(_ s: UnsafeRawBufferPointer, _ i: Int) -> UInt32? {
        guard i + 4 <= s.count, let a = hex(s[i]), let b = hex(s[i + 1]), let c = hex(s[i + 2]), let d = hex(s[i + 3])
        else { return nil }
        return UInt32(a) << 12 | UInt32(b) << 8 | UInt32(c) << 4 | UInt32(d)
    }

    /// The UTF-8 length of a code point.
    private static func utf8Length(_ v: UInt32) -> Int {
        v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4
    }

    /// Writes a code point as UTF-8 (never more bytes than its `\u` escape took).
    private static func writeUTF8(_ v: UInt32, into d: UnsafeMutablePointer<UInt8>) -> Int {
        switch v {
        case 0..<0x80:
            d[0] = UInt8(v)
            return 1
        case 0x80..<0x800:
            d[0] = UInt8(0xC0 | (v >> 6))
            d[1] = UInt8(0x80 | (v & 0x3F))
            return 2
        case 0x800..<0x10000:
            d[0] = UInt8(0xE0 | (v >> 12))
            d[1] = UInt8(0x80 | ((v >> 6) & 0x3F))
            d[2] = UInt8(0x80 | (v & 0x3F))
            return 3
        default:
            d[0] = UInt8(0xF0 | (v >> 18))
            d[1] = UInt8(0x80 | ((v >> 12) & 0x3F))
            d[2] = UInt8(0x80 | ((v >> 6) & 0x3F))
            d[3] = UInt8(0x80 | (v & 0x3F))
            return 4
        }
    }

    @inline(__always)
    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x37
        case 0x61...0x66: return b - 0x57
        default: return nil
        }
    }
}
