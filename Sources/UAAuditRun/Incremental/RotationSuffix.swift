/// What logrotate can append to a log's name when it rotates it, and so what `run` takes for
/// a rotated file of the log: a number (`.1`, `.0`), or the name `dateext` gives with any
/// `dateformat` logrotate accepts; either followed by a compressor's suffix or not
/// (``CompressionFormat/suffixes``: gzip is read by its first bytes, others are named, never
/// read). With `extension`, the number or date goes before the log's own suffix
/// (``isRotated(_:of:)``).
///
/// logrotate's `dateformat` allows only the specifiers `%Y %m %d %H %M %S %V %s` and
/// literal characters, in any order. So a date suffix is digit runs with literals between
/// them (any byte but `/` and NUL: `-%Y-W%V`, `-%Yweek%V`, `-%Y%m%dT%H%M%S`) and punctuation
/// (not `/`) before the first and after the last, and each digit run must split into fields
/// those specifiers write: a year (4 digits, 1970-2199), two-digit fields (00-60: month, day,
/// hour, minute, second, ISO week) and the epoch seconds (10 digits, 2001-2199). At least one
/// field must be a year
/// or the epoch seconds, so that another log named with a port or a number
/// (`access.log-8080`) is not taken for a rotation: a `dateformat` of neither (`-%m%d`) is
/// not recognised. A letter before the first digit or after the last is not taken (a
/// `dateformat` such as `-%Y%m%d.old` is not recognised): names other tools give beside a
/// log, a backup (`access.log.2026.bak`, `access.log-20261129.orig`), an export
/// (`access.log-2026.json`) are not read as rotated lines.
enum RotationSuffix {
    /// Whether `name` is `base` rotated: `base` followed by a rotation suffix, or, with
    /// logrotate's `extension` (the log's own suffix kept last), `base` up to its last `.`, a
    /// number or date, that suffix, then a compressor's suffix or none (`access.1.log`,
    /// `access-20261207.log.gz` for `access.log`).
    static func isRotated(_ name: String, of base: String) -> Bool {
        guard name != base else { return false }
        if name.hasPrefix(base), isRotation(name.dropFirst(base.count)) { return true }
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return false }
        let (stem, ext) = (base[..<dot], base[dot...])
        guard name.hasPrefix(stem) else { return false }
        var rest = name.dropFirst(stem.count)
        var compression = ""
        if let found = CompressionFormat.suffix(of: rest) {
            compression = String(rest.suffix(found.length))
            rest = rest.dropLast(found.length)
        }
        guard rest.count > ext.count, rest.hasSuffix(ext) else { return false }
        return isRotation(Substring(String(rest.dropLast(ext.count)) + compression))
    }

    /// Whether `suffix` (what follows the live log's name) is one logrotate writes: a number
    /// or a date, then a compressor's suffix (``CompressionFormat/suffixes``) or none.
    static func isRotation(_ suffix: Substring) -> Bool {
        var s = Array(suffix.utf8)
        if let compression = CompressionFormat.suffix(of: suffix) { s.removeLast(compression.length) }
        guard !s.isEmpty, s.count <= 96 else { return false }
        if s[0] == UInt8(ascii: "."), (2...11).contains(s.count), s.dropFirst().allSatisfy(isDigit) { return true }
        return isDate(s)
    }

    /// Digit runs with literals between them, punctuation around them, each run a sequence of
    /// fields, one of them a year or the epoch.
    static func isDate(_ s: [UInt8]) -> Bool {
        guard let first = s.firstIndex(where: isDigit), let last = s.lastIndex(where: isDigit) else { return false }
        var anchored = false
        var i = 0
        while i < s.count {
            if isDigit(s[i]) {
                var j = i
                while j < s.count, isDigit(s[j]) { j += 1 }
                guard let run = fields(s[i..<j]) else { return false }
                anchored = anchored || run
                i = j
            } else {
                guard i > first && i < last ? isLiteral(s[i]) : isSeparator(s[i]) else { return false }
                i += 1
            }
        }
        return anchored
    }

    /// Whether `digits` splits into fields the specifiers write: nil when it does not, else
    /// whether some split has a year or the epoch seconds.
    static func fields(_ digits: ArraySlice<UInt8>) -> Bool? {
        let d = Array(digits)
        guard d.count <= 40 else { return nil }
        // reach[i]: the ways to split the first i digits: bit 0 without a year or epoch, bit 1 with.
        var reach = [UInt8](repeating: 0, count: d.count + 1)
        reach[0] = 1
        func value(_ from: Int, _ count: Int) -> Int64 {
            d[from..<(from + count)].reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        }
        for i in 0..<d.count where reach[i] != 0 {
            let carried = reach[i] & 2 != 0 ? UInt8(2) : 0
            if i + 2 <= d.count, value(i, 2) <= 60 { reach[i + 2] |= reach[i] }
            if i + 4 <= d.count, (1970...2199).contains(value(i, 4)) { reach[i + 4] |= 2 | carried }
            if i + 10 <= d.count, (1_000_000_000..<7_258_118_400).contains(value(i, 10)) {
                reach[i + 10] |= 2 | carried
            }
        }
        guard reach[d.count] != 0 else { return nil }
        return reach[d.count] & 2 != 0
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// A literal byte of a `dateformat` between two fields: anything a file name may hold.
    static func isLiteral(_ c: UInt8) -> Bool { c != UInt8(ascii: "/") && c != 0 }

    /// A literal character of a `dateformat` before its first field or after its last: ASCII
    /// punctuation but `/`.
    static func isSeparator(_ c: UInt8) -> Bool {
        (0x21...0x2F).contains(c) && c != UInt8(ascii: "/") || (0x3A...0x40).contains(c) || (0x5B...0x60).contains(c)
            || (0x7B...0x7E).contains(c)
    }
}
