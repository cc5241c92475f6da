import UAAuditInput

/// Cuts a file into byte ranges that start at line beginnings, for reading side by side.
///
/// The cuts are at fixed offsets: chunk `k` starts at the first line that begins at or after
/// byte `k * chunkBytes`. They depend on the file and the chunk size alone, never on the
/// number of threads, so every per-chunk figure, and the result merged from the chunks in
/// file order, is the same whatever `--threads` is (CONTRACTS: the report).
enum Chunking {
    /// Boundaries `b[0] = 0 < … < b[n] = size` where each inner boundary follows a `\n`.
    /// Fewer chunks come back when lines are longer than a chunk.
    static func boundaries(fd: Int32, path: String, size: Int64, chunkBytes: Int64) throws(InputError)
        -> [Int64]
    {
        let step = max(chunkBytes, 1)
        var bounds: [Int64] = [0]
        var probe = [UInt8](repeating: 0, count: 64 << 10)
        var k: Int64 = 1
        while k * step < size {
            // The boundary is just after the first `\n` at or after k * step - 1.
            var position = k * step - 1
            var found: Int64?
            while found == nil, position < size {
                let n: Int
                do {
                    n = try Syscalls.read(fd, into: &probe, offset: position)
                } catch {
                    throw InputError(path: path, reason: "read failed: \(error.description)", offset: position)
                }
                if n == 0 { break }
                let hit = probe.withUnsafeBytes { buffer in
                    Syscalls.memchr(buffer.baseAddress!, 0x0A, n).map { $0 - buffer.baseAddress! }
                }
                if let hit { found = position + Int64(hit) + 1 } else { position += Int64(n) }
            }
            guard let boundary = found, boundary < size else { break }
            bounds.append(boundary)
            // The next cut point past this boundary (a long line may span several).
            k = boundary / step + 1
        }
        bounds.append(size)
        return bounds
    }
}
