/// Makes text safe inside HTML (element content and quoted attribute values, SVG included).
///
/// UAs and log lines are hostile input: `<`, `>`, `&`, `"` and `'` become entities, so no
/// markup can be injected; control characters and bidirectional overrides are shown as
/// visible escapes (`\x1B`, `\u{202E}`), so they cannot disguise the text around them.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) {
                    out += "\\x" + hex(v, width: 2)
                } else if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
                    || v == 0x061C
                {
                    out += "\\u{" + hex(v, width: 1) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
