import UAAuditInput

/// Passes a source through, noting the offset just after the last `\n` it returned: where a
/// source that fails part-way (a damaged `.gz`) stops holding whole lines.
struct LineEndTracking<Base: ByteSource>: ByteSource {
    var base: Base
    /// Bytes returned so far.
    private(set) var passed: Int64 = 0
    /// The offset (in the bytes returned) just after the last `\n`.
    private(set) var lineEnd: Int64 = 0

    init(base: Base) { self.base = base }

    var consumed: Int64 { base.consumed }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let n = try base.read(into: buffer)
        if n > 0, let i = UnsafeRawBufferPointer(rebasing: buffer[0..<n]).lastIndex(of: 0x0A) {
            lineEnd = passed + Int64(i) + 1
        }
        passed += Int64(n)
        return n
    }
}
