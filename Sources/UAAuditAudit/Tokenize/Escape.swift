import UAAuditInput

/// Escapes bytes the way nginx's log module does (`ngx_http_log_escape`, `ngx_escape_json`).
///
/// The audit never needs this on its hot path; it exists so tests and fuzzers can check that
/// decoding what nginx wrote and escaping it again gives back the logged bytes.
enum Escape {
    static func nginx(_ bytes: [UInt8], mode: EscapeMode) -> [UInt8] {
        switch mode {
        case .none: return bytes
        case .default:
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            for b in bytes {
                if b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C {
                    out.append(contentsOf: [0x5C, 0x78, hexDigit(b >> 4, upper: true), hexDigit(b & 0xF, upper: true)])
                } else {
                    out.append(b)
                }
            }
            return out
        case .json:
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            for b in bytes {
                switch b {
                case 0x22, 0x5C: out.append(contentsOf: [0x5C, b])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x08: out.append(contentsOf: [0x5C, 0x62])
                case 0x0C: out.append(contentsOf: [0x5C, 0x66])
                case 0..<0x20:
                    out.append(contentsOf: [
                        0x5C, 0x75, 0x30, 0x30, hexDigit(b >> 4, upper: false), hexDigit(b & 0xF, upper: false),
                    ])
                default: out.append(b)
                }
            }
            return out
        }
    }

    private static func hexDigit(_ v: UInt8, upper: Bool) -> UInt8 {
        v < 10 ? 0x30 + v : (upper ? 0x37 : 0x57) + v
    }
}
