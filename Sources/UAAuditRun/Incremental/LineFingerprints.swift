import Glibc
import UAAuditAudit
import UAAuditInput

/// A 24-bit hash of each of the last lines read of the live log (``RunState/RecentLines``),
/// kept in the state beside the ``Checkpoints``, so that a log cut in place to a line
/// boundary, then written on, is found cut at that very line.
///
/// The checkpoints prove that a log still holds the chunks before the cut, but not where in
/// the next chunk it was cut. These hashes do: the log's lines from the end of the chunks that
/// still hash the same are compared one by one with them, and the first that differs (or the
/// end of the log) is where what was read ends; everything from there on was written since.
///
/// Bounds: at most ``maxLines`` lines per log, 3 bytes each, base64 in the state: 256 KiB of
/// state text whatever the log's length (a 1 M-line log and a 65,536-line one alike; a log of
/// 9,000 lines, 36 KiB). A cut below the lines kept falls back to the checkpoints alone (an
/// `uncertain` gap up to the first line after the cut chunk's end).
///
/// A new line whose hash happens to equal that of the old line at its place is taken for the
/// old one and not read: 1 in 16.8 M per cut (a 16-bit hash would be 1 in 65,536; a byte of
/// the line's length instead of the third hash byte adds less, log lines' lengths being much
/// alike). A line is hashed with its length, on its first 64 KiB.
enum LineFingerprints {
    /// The most lines fingerprinted per log.
    static let maxLines = 65_536
    /// Bytes per line in ``RunState/RecentLines/hashes``.
    static let width = 3
    /// The bytes read at once.
    static let block: Int64 = 64 << 10
    /// The bytes of a line that are hashed (with its length): a longer line is not held whole.
    static let maxHashed = 64 << 10

    /// The 24-bit fingerprint of a line: `bytes` (its first ``maxHashed`` bytes, without its
    /// `\n`), and its whole `length`.
    static func fingerprint(_ bytes: UnsafeRawBufferPointer, length: Int64) -> UInt32 {
        let h = ByteHash.mix(ByteHash.hash(bytes, seed: 0x6C_69_6E_65) ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15))
        return UInt32(truncatingIfNeeded: h >> 40)
    }

    /// Calls `body` with the start, end (after its `\n`) and fingerprint (0 unless `hashing`)
    /// of each complete line of `[from, to)` of `file`, in order, while it returns true. Reads
    /// ``block`` bytes at a time; a line longer than a block keeps only its first
    /// ``maxHashed`` bytes. Returns whether the file held all of `[from, to)`.
    @discardableResult
    static func forEachLine(
        of file: LogFile, from: Int64, to: Int64, hashing: Bool, _ body: (Int64, Int64, UInt32) -> Bool
    ) throws(InputError) -> Bool {
        var carry: [UInt8] = []
        var lineStart = from
        var at = from
        var going = true
        while going, at < to {
            let want = min(block, to - at)
            let bytes = try file.bytes(from: at, to: at + want)
            let blockStart = at
            bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var i = 0
                while i < raw.count {
                    guard let nl = Syscalls.memchr(base + i, 0x0A, raw.count - i) else {
                        if hashing, carry.count < maxHashed {
                            let n = min(raw.count - i, maxHashed - carry.count)
                            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)]))
                        }
                        return
                    }
                    let j = base.distance(to: UnsafeRawPointer(nl))
                    let end = blockStart + Int64(j) + 1
                    var fp: UInt32 = 0
                    if hashing {
                        let length = end - 1 - lineStart
                        if lineStart >= blockStart {
                            fp = fingerprint(
                                UnsafeRawBufferPointer(rebasing: raw[i..<min(j, i + maxHashed)]), length: length)
                        } else {
                            if carry.count < maxHashed {
                                let n = min(j - i, maxHashed - carry.count)
                                carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)]))
                            }
                            fp = carry.withUnsafeBytes { fingerprint($0, length: length) }
                            carry.removeAll(keepingCapacity: true)
                        }
                    }
                    let start = lineStart
                    lineStart = end
                    i = j + 1
                    if !body(start, end, fp) {
                        going = false
                        return
                    }
                }
            }
            if bytes.count < Int(want) { return false }
            at += want
        }
        return true
    }

    /// `lines`, which fingerprint the lines of `[lines.start, linesEnd)` of `file`, carried on
    /// to `end` (a line end): the complete lines of `[linesEnd, end)` appended, and the oldest
    /// dropped beyond ``maxLines``. Without `lines`, the lines from `linesEnd` on. Nil when the
    /// file ends before `end` (truncated since it was opened).
    ///
    /// Only the last ``maxLines`` new lines are hashed (a first run over a long log hashes
    /// its end only); the start of the first line kept is found by reading the lines dropped.
    static func extend(_ lines: RunState.RecentLines?, end linesEnd: Int64, file: LogFile, to end: Int64)
        throws(InputError) -> RunState.RecentLines?
    {
        let old = lines ?? RunState.RecentLines(start: linesEnd, hashes: [])
        guard end > linesEnd else { return old }
        guard let last = try lastLines(of: file, from: linesEnd, to: end, count: maxLines) else { return nil }
        var new = RunState.RecentLines(start: last.start, hashes: [])
        new.hashes.reserveCapacity(last.count * width)
        let held = try forEachLine(of: file, from: last.start, to: end, hashing: true) { _, _, fp in
            new.hashes.append(UInt8(truncatingIfNeeded: fp >> 16))
            new.hashes.append(UInt8(truncatingIfNeeded: fp >> 8))
            new.hashes.append(UInt8(truncatingIfNeeded: fp))
            return true
        }
        guard held else { return nil }
        if last.start > linesEnd || old.count == 0 { return new }
        let drop = old.count + new.count - maxLines
        guard drop > 0 else { return RunState.RecentLines(start: old.start, hashes: old.hashes + new.hashes) }
        // The first old line kept starts `drop` lines after the old start.
        var skipped = 0
        var start = old.start
        try forEachLine(of: file, from: old.start, to: linesEnd, hashing: false) { _, end, _ in
            skipped += 1
            start = end
            return skipped < drop
        }
        guard skipped == drop else { return nil }
        return RunState.RecentLines(start: start, hashes: Array(old.hashes.dropFirst(drop * width)) + new.hashes)
    }

    /// The start of the last `count` lines of `[from, to)` of `file` (`to` a line end, `from`
    /// a line start), and how many lines that is (fewer when the range holds fewer: then it
    /// starts at `from`). Reads back from `to`, no further than those lines. Nil when the file
    /// ends before `to`.
    static func lastLines(of file: LogFile, from: Int64, to: Int64, count: Int) throws(InputError) -> (
        start: Int64, count: Int
    )? {
        // The `\n` before the first line wanted is the (count + 1)-th from the end.
        var need = count + 1
        var hi = to
        while hi > from {
            let lo = max(from, hi - block)
            let bytes = try file.bytes(from: lo, to: hi)
            guard bytes.count == Int(hi - lo) else { return nil }
            let found: Int64? = bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return nil }
                var newlines: [Int] = []
                var i = 0
                while i < raw.count, let nl = Syscalls.memchr(base + i, 0x0A, raw.count - i) {
                    i = base.distance(to: UnsafeRawPointer(nl)) + 1
                    newlines.append(i)
                }
                guard newlines.count >= need else {
                    need -= newlines.count
                    return nil
                }
                return lo + Int64(newlines[newlines.count - need])
            }
            if let found { return (found, count) }
            hi = lo
        }
        return (from, count + 1 - need)
    }

    /// Where `file` stops holding what `lines` fingerprinted, when a log was cut in place
    /// below what was read and may have been written on since.
    enum Cut: Equatable {
        /// What was read ends at `end`: the lines before it are the first `lines.count` of
        /// those fingerprinted (unchanged), and everything from `end` on was written since.
        case found(end: Int64, lines: RunState.RecentLines)
        /// The cut is at or before `offset`: lines that start there or later were written since.
        case atOrBefore(Int64)
        /// The lines fingerprinted do not reach back to the cut.
        case unknown
    }

    /// Where a log that still holds its first `verified` bytes as read (the chunks that still
    /// hash the same) was cut: its lines compared one by one with `lines`, from the one that
    /// holds `verified`, or from the first line fingerprinted when that starts later (then
    /// one that matches proves the cut after it). Reads at most the lines fingerprinted.
    static func cut(_ lines: RunState.RecentLines, verified: Int64, file: LogFile, size: Int64)
        throws(InputError) -> Cut
    {
        var index = 0
        var at = lines.start
        if lines.start <= verified {
            // The line that holds `verified`: lines before it are unchanged.
            try forEachLine(of: file, from: lines.start, to: verified, hashing: false) { _, end, _ in
                index += 1
                at = end
                return true
            }
            guard index <= lines.count else { return .unknown }
        } else {
            // Cut before the first line fingerprinted when a line no longer starts there.
            guard size >= lines.start, lines.start > 0,
                try file.bytes(from: lines.start - 1, to: lines.start) == [0x0A]
            else { return .atOrBefore(lines.start) }
        }
        let first = index
        var end = at
        try forEachLine(of: file, from: at, to: size, hashing: true) { _, lineEnd, fp in
            guard index < lines.count, fp == lines[index] else { return false }
            index += 1
            end = lineEnd
            return true
        }
        if lines.start > verified, index == first { return .atOrBefore(lines.start) }
        return .found(end: end, lines: lines.prefix(index))
    }
}
