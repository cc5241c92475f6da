import UAAuditAudit
import UAAuditInput

/// The time a log line is stamped with, by the log's format: what tells a copy of a log from a
/// new generation that starts with the same bytes (issue 29).
///
/// nginx writes the same line for the same request in the same second (a burst from one
/// client, a page's assets, a probe), so a new generation can start byte for byte as the old
/// one did when all of what was read of it was written in one second. A new generation's lines
/// are written after the old one's, so it cannot repeat old lines stamped at two different
/// seconds: shared bytes whose first and last lines differ in time prove a copy.
final class LineClock {
    private let tokenizer: LineTokenizer

    init(format: LogFormat) { tokenizer = LineTokenizer(format: format) }

    /// The second `line` (with or without its `\n`) is stamped at; nil when it does not parse.
    func instant(_ line: [UInt8]) -> Int64? {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let matched = line.withUnsafeBytes { tokenizer.match(UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
        return matched ? tokenizer.hour.startInstant + Int64(tokenizer.secondOfHour) : nil
    }

    /// Whether the lines `first` and `last` are stamped at two different seconds (both parse).
    func spansTwoSeconds(_ first: [UInt8], _ last: [UInt8]) -> Bool {
        guard let a = instant(first), let b = instant(last) else { return false }
        return a != b
    }
}

extension SharedContent {
    /// Whether `file`'s complete lines before `end` prove it holds a copy of what was read
    /// (``LineClock``): its first and last of them are stamped at different seconds. With no
    /// clock (planner tests on lines without a format), whole bytes are taken as proof.
    static func provesCopy(_ file: LogFile, upTo end: Int64, clock: LineClock?) throws(InputError) -> Bool {
        guard let clock else { return true }
        // The first and last of them whose time parses: a malformed line (a request cut, a
        // garbage line) at either end proves nothing either way.
        var first: Int64? = nil
        var last: Int64? = nil
        var looked = 0
        if file.compressed {
            try forEachLine(of: file, from: 0, to: end) { line in
                if let t = clock.instant(line) {
                    if first == nil { first = t }
                    last = t
                }
                return true
            }
        } else {
            try forEachLine(of: file, from: 0, to: end) { line in
                looked += 1
                first = clock.instant(line)
                return first == nil && looked < 1000
            }
            let tail = try file.bytes(from: max(0, end - 1_048_576), to: end)
            var lines = tail.split(separator: 0x0A, omittingEmptySubsequences: true)
            // A first piece cut by the tail's start is no whole line.
            if end > 1_048_576, !lines.isEmpty { lines.removeFirst() }
            for line in lines.reversed() {
                if let t = clock.instant(Array(line)) {
                    last = t
                    break
                }
            }
        }
        guard let first, let last else { return false }
        return first != last
    }
}
