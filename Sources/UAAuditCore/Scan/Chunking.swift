/// Cuts a file into byte ranges that start at line beginnings, for reading side by side.
public enum Chunking {
    /// Boundaries `b[0] = 0 < … < b[n] = size` where each inner boundary follows a `\n`.
    /// Fewer chunks come back when lines are longer than a chunk.
    public static func boundaries(fd: Int32, path: String, size: Int64, chunks: Int) throws(InputError) -> [Int64] {
        var bounds: [Int64] = [0]
        var probe = [UInt8](repeating: 0, count: 64 << 10)
        for i in 1..<max(chunks, 1) {
            let target = max(size * Int64(i) / Int64(chunks), bounds.last! + 1)
            if target <= 0 || target >= size { continue }
            // The boundary is just after the first `\n` at or after target - 1.
            var position = target - 1
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
            guard let boundary = found, boundary < size, boundary > bounds.last! else { continue }
            bounds.append(boundary)
        }
        bounds.append(size)
        return bounds
    }
}
