import UAAuditAudit
import UAAuditInput

/// Tells why lines do not match a log format, and which other format they match.
///
/// Not on the hot path: it runs on a few malformed samples after a scan, to explain a
/// format mismatch (exit 8) and to let `doctor` check the last lines of a log.
package enum FormatProbe {
    /// Where a line stopped matching a format.
    package struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// The variable (without `$`) whose value did not fit, or nil for a literal.
        var variable: String?
        /// 1-based byte position in the line where the mismatch was found.
        var byte: Int
        var expected: String
        /// True when the failing field runs to the line's end: the text that ends it is not
        /// there. A line cut short (a kept sample) fails so in the field it was cut in.
        var unterminated = false
        /// The format's literals and fields matched before the failure.
        var matched = 0

        package var description: String {
            if let variable { return "$\(variable) failed at byte \(byte): expected \(expected)" }
            return "the format's text failed at byte \(byte): expected \(expected)"
        }
    }

    /// True when `line` matches `format` exactly as a scan would count it.
    static func parses(_ line: [UInt8], as format: LogFormat) -> Bool {
        let tokenizer = LineTokenizer(format: format)
        return line.withUnsafeBytes { tokenizer.match($0) }
    }

    /// The share of `lines` that `format` parses (0 when there are none). A line of exactly
    /// ``Tally/sampleTextBytes``, as a kept sample is when it was cut there, counts when it
    /// matches as far as it goes: past its first fields, up to one that runs to its end.
    static func share(of lines: [[UInt8]], parsedBy format: LogFormat) -> Double {
        guard !lines.isEmpty else { return 0 }
        let tokenizer = LineTokenizer(format: format)
        let n = lines.filter { line in
            line.withUnsafeBytes({ tokenizer.match($0) }) || matchesAsFarAsItGoes(line, format)
        }.count
        return Double(n) / Double(lines.count)
    }

    /// The candidate that parses more than half of `lines`, as ``bestFit(_:among:)``, leaving out
    /// the lines cut where `given` still matches them (they say nothing of another format).
    static func otherFit(_ lines: [[UInt8]], given: LogFormat, among candidates: [LogFormat]) -> LogFormat? {
        bestFit(lines.filter { !matchesAsFarAsItGoes($0, given) }, among: candidates)
    }

    /// True when `line`, of exactly ``Tally/sampleTextBytes`` (as a kept sample is when it was
    /// cut there; a whole line, longer or shorter, is not), matches `format` as far as it goes:
    /// past its first fields, up to one that runs to its end.
    static func matchesAsFarAsItGoes(_ line: [UInt8], _ format: LogFormat) -> Bool {
        guard line.count == Tally.sampleTextBytes, let failure = failure(of: line, in: format) else { return false }
        return failure.unterminated && failure.matched >= 4
    }

    /// The first candidate that parses more than half of `lines` (the most first), or nil.
    static func bestFit(_ lines: [[UInt8]], among candidates: [LogFormat]) -> LogFormat? {
        var best: (LogFormat, Double)?
        for candidate in candidates {
            let share = share(of: lines, parsedBy: candidate)
            if share > 0.5, share > (best?.1 ?? 0) { best = (candidate, share) }
        }
        return best?.0
    }

    /// Where `line` first departs from `format`, reading each field up to the first place its
    /// following text can go (nil when the line matches that way).
    static func failure(of line: [UInt8], in format: LogFormat) -> Failure? {
        var position = 0
        let segments = format.segments
        var index = 0
        while index < segments.count {
            switch segments[index] {
            case .literal(let literal):
                guard starts(line, with: literal, at: position) else {
                    return Failure(variable: nil, byte: position + 1, expected: "'\(text(literal))'")
                }
                position += literal.count
                index += 1
            case .variable(let name, let role):
                var end = line.count
                if index + 1 < segments.count, case .literal(let literal) = segments[index + 1] {
                    if index + 2 < segments.count {
                        guard let cut = find(literal, in: line, from: position) else {
                            return Failure(
                                variable: name, byte: position + 1,
                                expected: "a value followed by '\(text(literal))', which the line lacks from there",
                                unterminated: true, matched: index)
                        }
                        end = cut
                    } else {
                        end = line.count - literal.count
                        guard end >= position, starts(line, with: literal, at: end) else {
                            return Failure(
                                variable: name, byte: position + 1,
                                expected: "a value and '\(text(literal))' ending the line", unterminated: true,
                                matched: index)
                        }
                    }
                }
                if let expected = check(Array(line[position..<end]), role: role) {
                    return Failure(variable: name, byte: position + 1, expected: expected)
                }
                position = end
                index += 1
            }
        }
        if position != line.count {
            return Failure(variable: nil, byte: position + 1, expected: "the end of the line")
        }
        return nil
    }

    /// What a value of `role` should have been, or nil when it fits.
    static func check(_ value: [UInt8], role: FieldRole) -> String? {
        func digits(_ b: ArraySlice<UInt8>) -> Bool { !b.isEmpty && b.allSatisfy { $0 &- 0x30 < 10 } }
        switch role {
        case .status:
            return value.count == 3 && digits(value[...]) ? nil : "3 digits (an HTTP status)"
        case .digits:
            return digits(value[...]) ? nil : "digits"
        case .decimal:
            let parts = value.split(separator: 0x2E, omittingEmptySubsequences: false)
            return parts.count <= 2 && parts.allSatisfy(digits) ? nil : "a number such as 0.012"
        case .timeLocal:
            // dd/Mon/yyyy:hh:mm:ss +zzzz
            let ok =
                value.count == 26 && value[2] == 0x2F && value[6] == 0x2F && value[11] == 0x3A
                && value[20] == 0x20 && digits(value[0..<2]) && digits(value[7..<11])
            return ok ? nil : "a time such as 01/Dec/2026:13:05:00 +0000"
        case .timeISO8601:
            let ok = value.count == 25 && value[4] == 0x2D && value[10] == 0x54 && digits(value[0..<4])
            return ok ? nil : "a time such as 2026-12-01T13:05:00+00:00"
        case .msec:
            let parts = value.split(separator: 0x2E, omittingEmptySubsequences: false)
            return parts.count == 2 && parts.allSatisfy(digits) ? nil : "seconds.milliseconds"
        case .userAgent, .request, .uri, .other:
            return nil
        }
    }

    private static func starts(_ line: [UInt8], with literal: [UInt8], at position: Int) -> Bool {
        position + literal.count <= line.count && line[position..<(position + literal.count)].elementsEqual(literal)
    }

    private static func find(_ literal: [UInt8], in line: [UInt8], from: Int) -> Int? {
        guard !literal.isEmpty, line.count >= literal.count else { return nil }
        var i = from
        while i + literal.count <= line.count {
            if starts(line, with: literal, at: i) { return i }
            i += 1
        }
        return nil
    }

    private static func text(_ bytes: [UInt8]) -> String {
        ReportText.render(bytes)
    }
}
