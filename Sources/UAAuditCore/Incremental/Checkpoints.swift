/// Hashes of the content of a log read so far, in line-aligned chunks (4, 8, 16, 32, then
/// every 64 KiB), kept in the state with the offset.
///
/// A log found shorter than its offset (cut in place), or whose last chunk before the offset
/// no longer hashes the same (cut and written again past the offset), is checked against
/// them: the chunks that still hash the same were counted and are not read again.
package enum Checkpoints {
    package static let interval: Int64 = 64 << 10

    /// Chunks grow from 4 KiB to `interval`, so that a small log cut in place keeps most of
    /// what was counted.
    static func size(ofChunk index: Int) -> Int64 {
        min(interval, Int64(4096) << Int64(min(index, 8)))
    }

    static func hash(_ bytes: [UInt8]) -> String {
        let h = bytes.withUnsafeBytes { ByteHash.hash($0, seed: 0x63_68_75_6E_6B) }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// `existing` carried on to `end` over `file`'s bytes: the last chunk (possibly partial) is
    /// hashed again from its start, then chunks cut after their last `\n`. Nil when the file
    /// is shorter than `end` now (truncated since it was opened).
    package static func extend(_ existing: [RunState.Checkpoint], file: LogFile, to end: Int64) throws(InputError)
        -> [RunState.Checkpoint]?
    {
        var out = existing
        if !out.isEmpty { out.removeLast() }
        var start = out.last?.end ?? 0
        while start < end {
            let blockEnd = min(start + size(ofChunk: out.count), end)
            let block = try file.bytes(from: start, to: blockEnd)
            guard block.count == Int(blockEnd - start) else { return nil }
            var cut = block.count
            if blockEnd < end, let nl = block.lastIndex(of: 0x0A) { cut = nl + 1 }
            out.append(RunState.Checkpoint(end: start + Int64(cut), hash: hash(Array(block[0..<cut]))))
            start += Int64(cut)
        }
        return out
    }

    /// The end of the leading chunks that `file` still holds unchanged within its first `size`
    /// bytes (0 when the first one changed), and how many chunks that is.
    package static func verifiedPrefix(_ checkpoints: [RunState.Checkpoint], file: LogFile, size: Int64)
        throws(InputError) -> (end: Int64, count: Int)
    {
        var start: Int64 = 0
        for (i, checkpoint) in checkpoints.enumerated() {
            guard checkpoint.end <= size else { return (start, i) }
            let chunk = try file.bytes(from: start, to: checkpoint.end)
            guard chunk.count == Int(checkpoint.end - start), hash(chunk) == checkpoint.hash else { return (start, i) }
            start = checkpoint.end
        }
        return (start, checkpoints.count)
    }

    /// Whether the last chunk still hashes the same (true without checkpoints: nothing to check).
    package static func tailHolds(_ checkpoints: [RunState.Checkpoint], file: LogFile) throws(InputError) -> Bool {
        guard let last = checkpoints.last else { return true }
        let start = checkpoints.count > 1 ? checkpoints[checkpoints.count - 2].end : 0
        let chunk = try file.bytes(from: start, to: last.end)
        return chunk.count == Int(last.end - start) && hash(chunk) == last.hash
    }
}
