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
