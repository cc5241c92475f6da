/// Reads an instant written with its zone, to the hour or finer: `2024-03-31T15Z`,
/// `2024-03-31T15:00Z`, `2024-03-31 23:00+08:00`, `2024-03-31T23:00:00+0800`. Used to find an
/// hour by its instant whatever the offset it was logged at.
package enum InstantText {
    /// Seconds since the epoch; nil unless `text` is a date, an hour and a zone (`Z` or ±HH[:MM]).
    package static func parse(_ text: String) -> Int64? {
        let chars = Array(text)
        guard chars.count >= 14, chars[10] == "T" || chars[10] == " " else { return nil }
        let date = String(chars[..<10])
        var rest = String(chars[11...])
        let zone: String
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            rest.removeLast()
            zone = "+00:00"
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let digits = rest[rest.index(after: sign)...].filter { $0 != ":" }
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber)
            else { return nil }
            let padded = digits.count == 2 ? digits + "00" : String(digits)
            zone = "\(rest[sign])\(padded.prefix(2)):\(padded.suffix(2))"
            rest = String(rest[..<sign])
        } else {
            return nil
        }
        let clock: String
        switch rest.count {
        case 2: clock = rest + ":00:00"
        case 5: clock = rest + ":00"
        case 8: clock = rest
        default: return nil
        }
        return Instant.parse(date + "T" + clock + zone)
    }
}
