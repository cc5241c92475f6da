/// Makes text from a log safe to show on a terminal: control characters never pass through.
///
/// An ESC sequence in a UA must not recolour or clear the operator's terminal, so C0 and C1
/// controls, DEL, bidirectional overrides and marks, and the Unicode line and paragraph
/// separators are shown escaped (`\x1B`, `\u{202E}`, `\u{2028}`).
enum TerminalText {
    /// Escapes `text`; with a `limit`, the result is cut to at most that many terminal
    /// columns, ending in `…` (a wide character, as CJK ones are, takes two: ``columns(of:)``).
    static func escape(_ text: String, limit: Int = .max) -> String {
        var out = ""
        var shown = 0
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            let v = scalar.value
            let piece: String
            let width: Int
            if v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) {
                piece = "\\x" + String(v, radix: 16, uppercase: true).leftPadded(2)
                width = piece.count
            } else if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
                || v == 0x061C || v == 0x2028 || v == 0x2029
            {
                piece = "\\u{" + String(v, radix: 16, uppercase: true) + "}"
                width = piece.count
            } else {
                piece = String(scalar)
                width = columns(of: scalar)
            }
            let isLast = i == scalars.count - 1
            if shown + width > (isLast ? limit : limit - 1) {
                out += "…"
                break
            }
            out += piece
            shown += width
        }
        return out
    }

    /// The terminal columns a printable scalar takes: 2 for East Asian wide and fullwidth
    /// characters and emoji, 0 for combining marks and zero-width ones, else 1 (what `wcwidth`
    /// gives for them, from the ranges of Unicode's East Asian Width property).
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }
        for range in zeroWidth where range.contains(v) { return 0 }
        for range in wide where range.contains(v) { return 2 }
        return 1
    }

    /// The terminal columns of `text` as printed (already escaped).
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    private static let zeroWidth: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F, 0x1AB0...0x1AFF,
        0x1DC0...0x1DFF, 0x200B...0x200D, 0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xE0100...0xE01EF,
    ]
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
        0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension TerminalText {
    /// ``escape(_:limit:)`` line by line: a message's own line breaks stay, every other
    /// control character (from a rules file, a UA, a server's answer) is shown escaped.
    static func escapeKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n")
    }

    /// Escapes `text` and breaks it at spaces into lines of at most `width` columns, each
    /// starting with `indent` (a word longer than a line is cut).
    static func wrapped(_ text: String, indent: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in escape(text).split(separator: " ") {
            let used = columns(line)
            if line.count > indent.count, used + 1 + columns(String(word)) > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        if line.count > indent.count { lines.append(line) }
        // A word longer than a line is cut to the width, in columns.
        return lines.map {
            columns($0) > width ? indent + escape(String($0.dropFirst(indent.count)), limit: width - indent.count) : $0
        }
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    /// Padded with spaces to `width` terminal columns (``TerminalText/columns(_:)``).
    func padded(_ width: Int) -> String {
        let columns = TerminalText.columns(self)
        return columns >= width ? self : self + String(repeating: " ", count: width - columns)
    }

    /// Right-aligned in `width` terminal columns (``TerminalText/columns(_:)``).
    func rightAligned(_ width: Int) -> String {
        let columns = TerminalText.columns(self)
        return columns >= width ? self : String(repeating: " ", count: width - columns) + self
    }
}
