import UAAuditInput

/// How far two files hold the same content: a live log replaced by a copy of itself while the
/// old file stays under a rotated name holds the old file's lines too, and each must be
/// counted once.
enum SharedContent {
    /// The end of the last line that `a` and `b` both hold byte for byte from `offset` on
    /// (decompressed content for gzip; a plain file up to its size when opened): `offset` when
    /// their first lines from there differ.
    static func lineEnd(of a: LogFile, _ b: LogFile, from offset: Int64) throws(InputError) -> Int64 {
        var x = try a.content(from: offset, to: a.compressed ? nil : a.status.size)
        var y = try b.content(from: offset, to: b.compressed ? nil : b.status.size)
        let blockSize = 64 << 10
        var blockA = [UInt8](repeating: 0, count: blockSize)
        var blockB = [UInt8](repeating: 0, count: blockSize)
        var position = offset
        var lineEnd = offset
        while true {
            let n = min(try ContentPrefix.fill(&x, &blockA), try ContentPrefix.fill(&y, &blockB))
            var i = 0
            while i < n, blockA[i] == blockB[i] {
                if blockA[i] == 0x0A { lineEnd = position + Int64(i) + 1 }
                i += 1
            }
            if i < blockSize { return lineEnd }
            position += Int64(n)
        }
    }
}

extension SharedContent {
    /// Calls `body` with each complete line (with its `\n`) of `file`'s content in
    /// `[from, to)` (`to` nil: to the end of the content), in order, until it returns false.
    static func forEachLine(
        of file: LogFile, from: Int64, to: Int64?, _ body: ([UInt8]) -> Bool
    ) throws(InputError) {
        var source = try file.content(from: from, to: file.compressed ? nil : to ?? file.status.size)
        var block = [UInt8](repeating: 0, count: 64 << 10)
        var carry: [UInt8] = []
        var position = from
        while true {
            let n = try ContentPrefix.fill(&source, &block)
            if n == 0 { return }
            let usable = to.map { Int(min(Int64(n), max(0, $0 - position))) } ?? n
            var start = 0
            while let nl = block[start..<usable].firstIndex(of: 0x0A) {
                carry += block[start...nl]
                guard body(carry) else { return }
                carry.removeAll(keepingCapacity: true)
                start = nl + 1
            }
            carry += block[start..<usable]
            position += Int64(n)
            if usable < n || n < block.count { return }
        }
    }

    /// How many different lines the bytes two files share must hold to prove one a copy of the
    /// other (``divergence(of:from:)``).
    static let minimumDistinctLines = 8

    /// Where `copy` stops holding `old`'s bytes, when that proves it a copy of `old` (a backup of
    /// it, or the file `cp` made of it) and not a new generation of the log: nil when the two
    /// share fewer than ``FileIdentity/minimumEvidenceBytes`` bytes of lines, or lines all
    /// stamped in one second (`clock`; without it, fewer than ``minimumDistinctLines``
    /// different lines, or `copy` holding nothing past them): a health probe's, a burst, the
    /// same first lines of every generation.
    ///
    /// `from` is the end of those shared bytes: `copy`'s lines before it are `old`'s, counted
    /// when `old` is. What follows in `copy` was written to it after it was copied, unless its
    /// first line is one `old` holds too (a copy edited, a line taken out): then `edited`, and
    /// `copy` from `from` to its end may hold lines counted before and lines written since.
    static func divergence(of copy: LogFile, from old: LogFile, clock: LineClock? = nil) throws(InputError) -> (
        from: Int64, edited: Bool
    )? {
        let shared = try lineEnd(of: old, copy, from: 0)
        guard shared >= Int64(FileIdentity.minimumEvidenceBytes) else { return nil }
        // A new generation can start with the old one's lines byte for byte: nginx writes the
        // same line for the same request in the same second (a probe, a burst from one client,
        // a page's assets). Taking one for a copy loses its lines; missing a copy counts its
        // lines twice. With the log's format, shared lines stamped at two seconds prove a copy
        // (``LineClock``); without it, 8 different shared lines and a line of its own do.
        if let clock {
            guard try provesCopy(copy, upTo: shared, clock: clock) else { return nil }
        } else {
            var seen = Set<[UInt8]>()
            try forEachLine(of: copy, from: 0, to: shared) { line in
                seen.insert(line)
                return seen.count < minimumDistinctLines
            }
            guard seen.count >= minimumDistinctLines else { return nil }
        }
        var next: [UInt8]? = nil
        try forEachLine(of: copy, from: shared, to: nil) { line in
            next = line
            return false
        }
        // All of it shared: without the format, no line written since proves it a copy rather
        // than a new generation that starts as the old one did.
        guard let next else { return clock == nil ? nil : (shared, false) }
        var held = false
        try forEachLine(of: old, from: 0, to: nil) { line in
            held = line == next
            return !held
        }
        return (shared, held)
    }
}
