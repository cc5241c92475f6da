import UAAuditInput

/// A request path as the application sees it: nginx's log escaping undone, then its
/// percent-encoding (`/api/%6Cogin` is `/api/login`), so one endpoint is one entry.
enum PathText {
    static func decode(_ logged: [UInt8], escape: EscapeMode) -> [UInt8] {
        let bytes = Unescape.decode(logged, mode: escape)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let hi = hex(bytes[i + 1]),
                let lo = hex(bytes[i + 2])
            {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
