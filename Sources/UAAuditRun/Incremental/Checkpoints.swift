import UAAuditAudit
import UAAuditInput

/// Hashes of the content of a log read so far, in line-aligned chunks kept in the state with
/// the offset: 4, 8, 16, 32, 64 KiB, then at least 1/48 of what was read, and never more
/// than ``maxCount`` (the smallest neighbours are merged), so that the state and the memory
/// of a run stay small however long the log grows.
///
/// A log found shorter than its offset (cut in place), or whose last chunk before the offset
/// no longer hashes the same (cut and written again past the offset), is checked against
/// them: the chunks that still hash the same were counted and are not read again. Where in
/// the next chunk it was cut, ``LineFingerprints`` tell (kept beside them, for the last lines).
enum Checkpoints {
    static let interval: Int64 = 64 << 10
    /// The most checkpoints kept for one log.
    static let maxCount = 64
    /// New chunks are at least this fraction of the content read (1/n).
    static let spread: Int64 = 48

    /// Chunks grow from 4 KiB to `interval`, so that a small log cut in place keeps most of
    /// what was counted.
    static func size(ofChunk index: Int) -> Int64 {
        min(interval, Int64(4096) << Int64(min(index, 8)))
    }

    static func hash(_ bytes: [UInt8]) -> String {
        hex(bytes.withUnsafeBytes { ByteHash.hash($0, seed: 0x63_68_75_6E_6B) })
    }

    static func hex(_ h: UInt64) -> String {
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The hash of `[from, to)` of `file`, or nil when the file ends first. A chunk of up to
    /// `interval` bytes is hashed whole (as states before the merging of chunks have them); a
    /// longer one block by block, so that no more than `interval` bytes are held at once.
    static func hash(of file: LogFile, from: Int64, to: Int64) throws(InputError) -> String? {
        if to - from <= interval {
            let bytes = try file.bytes(from: from, to: to)
            return bytes.count == Int(to - from) ? hash(bytes) : nil
        }
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = ByteHash.mix(0x6C_6F_6E_67 ^ (UInt64(to - from) &* m))
        var start = from
        while start < to {
            let end = min(start + interval, to)
            let block = try file.bytes(from: start, to: end)
            guard block.count == Int(end - start) else { return nil }
            h = ByteHash.mix(h ^ block.withUnsafeBytes { ByteHash.hash($0, seed: 0x63_68_75_6E_6B) }) &+ m
            start = end
        }
        return hex(h)
    }

    /// The hash of the first line of `[from, to)` of `file`: up to its first `\n`, at most
    /// `interval` bytes (all there is when the file ends first).
    static func firstLine(of file: LogFile, from: Int64, to: Int64) throws(InputError) -> String {
        let bytes = try file.bytes(from: from, to: min(to, from + interval))
        guard let nl = bytes.firstIndex(of: 0x0A) else { return hash(bytes) }
        return hash(Array(bytes[...nl]))
    }

    /// `existing` carried on to `end` over `file`'s bytes: the last chunk (possibly partial) is
    /// hashed again from its start, then chunks cut after their last `\n`; then the smallest
    /// neighbours merged until at most ``maxCount`` are left. Nil when the file is shorter
    /// than `end` now (truncated since it was opened).
    static func extend(_ existing: [RunState.Checkpoint], file: LogFile, to end: Int64) throws(InputError)
        -> [RunState.Checkpoint]?
    {
        if let last = existing.last, last.end == end, existing.count <= maxCount { return existing }
        var out = existing
        if !out.isEmpty { out.removeLast() }
        var start = out.last?.end ?? 0
        while start < end {
            let blockEnd = min(start + max(size(ofChunk: out.count), end / spread), end)
            var cut = blockEnd
            if blockEnd < end {
                // After the last `\n` of the chunk (in its last `interval` bytes), if any.
                let tailStart = max(start, blockEnd - interval)
                let tail = try file.bytes(from: tailStart, to: blockEnd)
                guard tail.count == Int(blockEnd - tailStart) else { return nil }
                if let nl = tail.lastIndex(of: 0x0A) { cut = tailStart + Int64(nl) + 1 }
            }
            guard let h = try hash(of: file, from: start, to: cut) else { return nil }
            out.append(RunState.Checkpoint(end: cut, hash: h, firstLine: try firstLine(of: file, from: start, to: cut)))
            start = cut
        }
        return try thin(out, file: file)
    }

    /// At most ``maxCount`` checkpoints: many (a state from before merging) are merged in
    /// groups, in one pass; a few too many, the smallest pair of neighbours at a time. The
    /// last chunk is kept as it is (it is checked on every run).
    static func thin(_ checkpoints: [RunState.Checkpoint], file: LogFile) throws(InputError) -> [RunState.Checkpoint]? {
        var out = checkpoints
        guard out.count > maxCount else { return out }
        if out.count > 2 * maxCount {
            let last = out.removeLast()
            let group = (out.count + maxCount / 2 - 1) / (maxCount / 2)
            var merged: [RunState.Checkpoint] = []
            var start: Int64 = 0
            var i = 0
            while i < out.count {
                let end = out[min(i + group, out.count) - 1].end
                guard let h = try hash(of: file, from: start, to: end) else { return nil }
                merged.append(RunState.Checkpoint(end: end, hash: h, firstLine: out[i].firstLine))
                start = end
                i += group
            }
            out = merged + [last]
        }
        while out.count > maxCount {
            // The pair (i, i+1) with the fewest bytes, among all but the last chunk.
            var best = 0
            var bestSize = Int64.max
            for i in 0..<(out.count - 2) {
                let from = i == 0 ? 0 : out[i - 1].end
                if out[i + 1].end - from < bestSize {
                    bestSize = out[i + 1].end - from
                    best = i
                }
            }
            let from = best == 0 ? 0 : out[best - 1].end
            guard let h = try hash(of: file, from: from, to: out[best + 1].end) else { return nil }
            out[best + 1] = RunState.Checkpoint(end: out[best + 1].end, hash: h, firstLine: out[best].firstLine)
            out.remove(at: best)
        }
        return out
    }

    /// The end of the leading chunks that `file` still holds unchanged within its first `size`
    /// bytes (0 when the first one changed), and how many chunks that is.
    static func verifiedPrefix(_ checkpoints: [RunState.Checkpoint], file: LogFile, size: Int64)
        throws(InputError) -> (end: Int64, count: Int)
    {
        var start: Int64 = 0
        for (i, checkpoint) in checkpoints.enumerated() {
            guard checkpoint.end <= size, checkpoint.end >= start,
                try hash(of: file, from: start, to: checkpoint.end) == checkpoint.hash
            else { return (start, i) }
            start = checkpoint.end
        }
        return (start, checkpoints.count)
    }

    /// Whether the last chunk still hashes the same (true without checkpoints: nothing to check).
    static func tailHolds(_ checkpoints: [RunState.Checkpoint], file: LogFile) throws(InputError) -> Bool {
        guard let last = checkpoints.last else { return true }
        let start = checkpoints.count > 1 ? checkpoints[checkpoints.count - 2].end : 0
        guard last.end >= start else { return false }
        return try hash(of: file, from: start, to: last.end) == last.hash
    }
}
