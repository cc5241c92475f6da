/// One hour of local time at one UTC offset: the key of a bucket.
///
/// A request is counted in the hour of its own timestamp, in that timestamp's offset, so
/// `17:xx +08:00` and `09:xx +00:00` are different buckets even though they are the same instant.
package struct HourKey: Hashable, Comparable, Sendable {
    /// Hours since 1970-01-01T00:00 in local time.
    package let localHour: Int64
    /// The UTC offset in minutes (east positive).
    package let offsetMinutes: Int32

    package init(localHour: Int64, offsetMinutes: Int32) {
        self.localHour = localHour
        self.offsetMinutes = offsetMinutes
    }

    /// The hour starting at local `year-month-day hour:00` at `offsetMinutes`.
    init(year: Int, month: Int, day: Int, hour: Int, offsetMinutes: Int32) {
        self.localHour = CivilDate.daysSinceEpoch(year: year, month: month, day: day) * 24 + Int64(hour)
        self.offsetMinutes = offsetMinutes
    }

    /// Seconds since the Unix epoch at which the hour starts.
    package var startInstant: Int64 { localHour * 3600 - Int64(offsetMinutes) * 60 }

    /// Ordered by instant, then by offset.
    package static func < (a: HourKey, b: HourKey) -> Bool {
        if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
        return a.offsetMinutes < b.offsetMinutes
    }

    /// ISO-8601 with the offset, as the report writes it: `2026-11-29T17:00:00+08:00`.
    package var iso8601: String {
        let days = localHour >= 0 ? localHour / 24 : (localHour - 23) / 24
        let hour = Int(localHour - days * 24)
        let (y, m, d) = CivilDate.civil(fromDays: days)
        let sign = offsetMinutes < 0 ? "-" : "+"
        let off = abs(Int(offsetMinutes))
        return
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(hour, 2)):00:00\(sign)\(pad(off / 60, 2)):\(pad(off % 60, 2))"
    }

    /// Parses the report's hour form back (`2026-11-29T17:00:00+08:00`, or `Z` for UTC).
    package init?(iso8601 text: String) {
        let b = Array(text.utf8)
        guard b.count == 25 || b.count == 20, let key = TimeParser.parseISO8601(b, requireWholeHour: true) else {
            return nil
        }
        self = key
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's algorithms).
package enum CivilDate {
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    package static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
