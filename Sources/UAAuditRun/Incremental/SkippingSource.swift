import UAAuditInput

/// Discards the first `skip` bytes of a source (to resume inside a compressed rotated file).
struct SkippingSource<Base: ByteSource>: ByteSource {
    var base: Base
    var skip: Int64

    var consumed: Int64 { base.consumed }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while skip > 0 {
            let want = Int(min(Int64(buffer.count), skip))
            let n = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
            if n == 0 { return 0 }
            skip -= Int64(n)
        }
        return try base.read(into: buffer)
    }
}
