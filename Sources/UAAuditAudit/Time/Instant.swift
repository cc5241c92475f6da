import FoundationEssentials

/// Parses `--now` and other ISO-8601 instants: `2026-11-29T18:05:00Z` or `…+08:00`.
package enum Instant {
    package static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count == 20 || b.count == 25,
            let hour = b.withUnsafeBytes({ TimeParser.parseISO8601($0.baseAddress!, count: b.count) }),
            let minute = Int(String(decoding: b[14..<16], as: UTF8.self)),
            let second = Int(String(decoding: b[17..<19], as: UTF8.self))
        else { return nil }
        return hour.startInstant + Int64(minute * 60 + second)
    }
}
