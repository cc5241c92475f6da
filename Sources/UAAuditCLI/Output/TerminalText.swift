/// Makes text from a log safe to show on a terminal: control characters never pass through.
///
/// An ESC sequence in a UA must not recolour or clear the operator's terminal, so C0 and C1
/// controls, DEL and bidirectional overrides are shown escaped (`\x1B`, `\u{202E}`).
enum TerminalText {
    /// Escapes `text`; with a `limit`, the result is cut to at most that many characters, ending in `…`.
    static func escape(_ text: String, limit: Int = .max) -> String {
        var out = ""
        var shown = 0
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            let v = scalar.value
            let piece: String
            if v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) {
                piece = "\\x" + String(v, radix: 16, uppercase: true).leftPadded(2)
            } else if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F {
                piece = "\\u{" + String(v, radix: 16, uppercase: true) + "}"
            } else {
                piece = String(scalar)
            }
            let isLast = i == scalars.count - 1
            if shown + piece.count > (isLast ? limit : limit - 1) {
                out += "…"
                break
            }
            out += piece
            shown += piece.count
        }
        return out
    }
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
            if line.count > indent.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        if line.count > indent.count { lines.append(line) }
        return lines.map { $0.count > width ? String($0.prefix(width - 1)) + "…" : $0 }
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func rightAligned(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
