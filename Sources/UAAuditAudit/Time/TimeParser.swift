/// Parses nginx's time variables into the ``HourKey`` of their hour, straight from the log bytes.
///
/// `$time_local` repeats its date and hour for thousands of lines, so the last one is cached:
/// only the minutes and seconds are checked again. A busy log repeats the whole time, to the
/// second, for many lines in a row: a time byte for byte the last accepted one is not read again.
struct TimeParser {
    private var cachedPrefix: (UInt64, UInt64) = (0, 0)
    private var cachedOffset: UInt64 = 0
    private var cachedKey: HourKey?
    /// The last accepted time's 26 bytes, its hour and second (`lastKey` nil: none yet).
    private var lastBytes: (UInt64, UInt64, UInt64, UInt16) = (0, 0, 0, 0)
    private var lastKey: HourKey?
    private var lastSecond = 0
    /// Seconds since the start of the hour of the last time ``parseLocal(_:count:)`` accepted.
    private(set) var secondOfHour = 0

    init() {}

    /// `29/Nov/2026:17:18:40 +0800` (exactly 26 bytes; English month names whatever the locale).
    @inline(__always)
    mutating func parseLocal(_ p: UnsafeRawPointer, count: Int) -> HourKey? {
        guard count == 26 else { return nil }
        let bytes = (
            p.loadUnaligned(as: UInt64.self), p.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            p.loadUnaligned(fromByteOffset: 16, as: UInt64.self), p.loadUnaligned(fromByteOffset: 24, as: UInt16.self)
        )
        if let key = lastKey, bytes == lastBytes {
            secondOfHour = lastSecond
            return key
        }
        guard let key = parseNew(p) else { return nil }
        (lastBytes, lastKey, lastSecond) = (bytes, key, secondOfHour)
        return key
    }

    /// ``parseLocal(_:count:)`` of 26 bytes that are not the last accepted time's (out of line:
    /// the repeated time is the common case).
    @inline(never)
    private mutating func parseNew(_ p: UnsafeRawPointer) -> HourKey? {
        // Minutes and seconds are never cached: check them on every line.
        guard p.load(fromByteOffset: 14, as: UInt8.self) == 0x3A, p.load(fromByteOffset: 17, as: UInt8.self) == 0x3A,
            p.load(fromByteOffset: 20, as: UInt8.self) == 0x20,
            let minute = TimeParser.twoDigits(p, 15), minute < 60,
            let second = TimeParser.twoDigits(p, 18), second <= 60
        else { return nil }
        secondOfHour = minute * 60 + second
        let prefix = (p.loadUnaligned(as: UInt64.self), p.loadUnaligned(fromByteOffset: 6, as: UInt64.self))
        let offsetBytes = p.loadUnaligned(fromByteOffset: 18, as: UInt64.self) & 0xFFFF_FFFF_FFFF_0000
        if let key = cachedKey, prefix == cachedPrefix, offsetBytes == cachedOffset { return key }
        guard let key = TimeParser.parseLocalSlow(p) else { return nil }
        cachedPrefix = prefix
        cachedOffset = offsetBytes
        cachedKey = key
        return key
    }

    private static func parseLocalSlow(_ p: UnsafeRawPointer) -> HourKey? {
        func byte(_ i: Int) -> UInt8 { p.load(fromByteOffset: i, as: UInt8.self) }
        guard byte(2) == 0x2F, byte(6) == 0x2F, byte(11) == 0x3A,
            let day = twoDigits(p, 0),
            let month = monthNumber(byte(3), byte(4), byte(5)),
            let y1 = twoDigits(p, 7), let y2 = twoDigits(p, 9),
            let hour = twoDigits(p, 12), hour < 24,
            let offset = offsetMinutes(sign: byte(21), hours: twoDigits(p, 22), minutes: twoDigits(p, 24))
        else { return nil }
        let year = y1 * 100 + y2
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        return HourKey(year: year, month: month, day: day, hour: hour, offsetMinutes: offset)
    }

    /// `2026-11-29T17:18:40+08:00` (25 bytes) or `2026-11-29T17:18:40Z` (20 bytes).
    static func parseISO8601(_ p: UnsafeRawPointer, count: Int, requireWholeHour: Bool = false) -> HourKey? {
        func byte(_ i: Int) -> UInt8 { p.load(fromByteOffset: i, as: UInt8.self) }
        guard count == 25 || count == 20,
            byte(4) == 0x2D, byte(7) == 0x2D, byte(10) == 0x54, byte(13) == 0x3A, byte(16) == 0x3A,
            let y1 = twoDigits(p, 0), let y2 = twoDigits(p, 2),
            let month = twoDigits(p, 5), month >= 1, month <= 12,
            let day = twoDigits(p, 8),
            let hour = twoDigits(p, 11), hour < 24,
            let minute = twoDigits(p, 14), minute < 60,
            let second = twoDigits(p, 17), second <= 60
        else { return nil }
        if requireWholeHour, minute != 0 || second != 0 { return nil }
        let year = y1 * 100 + y2
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        let offset: Int32
        if count == 20 {
            guard byte(19) == 0x5A else { return nil }
            offset = 0
        } else {
            guard byte(22) == 0x3A,
                let o = offsetMinutes(sign: byte(19), hours: twoDigits(p, 20), minutes: twoDigits(p, 23))
            else { return nil }
            offset = o
        }
        return HourKey(year: year, month: month, day: day, hour: hour, offsetMinutes: offset)
    }

    static func parseISO8601(_ bytes: [UInt8], requireWholeHour: Bool = false) -> HourKey? {
        bytes.withUnsafeBytes { parseISO8601($0.baseAddress!, count: bytes.count, requireWholeHour: requireWholeHour) }
    }

    /// `$msec`: seconds since the epoch with milliseconds (`1764407920.123`); counted in UTC.
    /// More than 10 digits of seconds is not a time nginx writes: the line is malformed.
    static func parseMsec(_ p: UnsafeRawPointer, count: Int) -> HourKey? {
        guard count >= 3, count <= 20 else { return nil }
        var seconds: Int64 = 0
        var i = 0
        var digits = 0
        while i < count {
            let b = p.load(fromByteOffset: i, as: UInt8.self)
            if b == 0x2E { break }
            // At most 10 digits (up to the year 2286): never an overflow, always a 4-digit year.
            guard b >= 0x30, b <= 0x39, digits < 10 else { return nil }
            seconds = seconds * 10 + Int64(b - 0x30)
            digits += 1
            i += 1
        }
        guard digits >= 1 else { return nil }
        if i < count {
            i += 1
            guard i < count else { return nil }
            while i < count {
                let b = p.load(fromByteOffset: i, as: UInt8.self)
                guard b >= 0x30, b <= 0x39 else { return nil }
                i += 1
            }
        }
        return HourKey(localHour: seconds / 3600, offsetMinutes: 0)
    }

    /// The whole seconds of a `$msec` value already accepted by ``parseMsec(_:count:)``.
    static func msecSeconds(_ p: UnsafeRawPointer, count: Int) -> Int64 {
        var seconds: Int64 = 0
        for i in 0..<count {
            let b = p.load(fromByteOffset: i, as: UInt8.self)
            if b == 0x2E { break }
            seconds = seconds * 10 + Int64(b &- 0x30)
        }
        return seconds
    }

    @inline(__always)
    static func twoDigits(_ p: UnsafeRawPointer, _ i: Int) -> Int? {
        let a = p.load(fromByteOffset: i, as: UInt8.self) &- 0x30
        let b = p.load(fromByteOffset: i + 1, as: UInt8.self) &- 0x30
        guard a < 10, b < 10 else { return nil }
        return Int(a) * 10 + Int(b)
    }

    private static func offsetMinutes(sign: UInt8, hours: Int?, minutes: Int?) -> Int32? {
        guard let hours, let minutes, hours <= 23, minutes < 60, sign == 0x2B || sign == 0x2D else { return nil }
        let value = Int32(hours * 60 + minutes)
        return sign == 0x2D ? -value : value
    }

    private static func monthNumber(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        switch (a, b, c) {
        case (0x4A, 0x61, 0x6E): return 1  // Jan
        case (0x46, 0x65, 0x62): return 2  // Feb
        case (0x4D, 0x61, 0x72): return 3  // Mar
        case (0x41, 0x70, 0x72): return 4  // Apr
        case (0x4D, 0x61, 0x79): return 5  // May
        case (0x4A, 0x75, 0x6E): return 6  // Jun
        case (0x4A, 0x75, 0x6C): return 7  // Jul
        case (0x41, 0x75, 0x67): return 8  // Aug
        case (0x53, 0x65, 0x70): return 9  // Sep
        case (0x4F, 0x63, 0x74): return 10  // Oct
        case (0x4E, 0x6F, 0x76): return 11  // Nov
        case (0x44, 0x65, 0x63): return 12  // Dec
        default: return nil
        }
    }
}
