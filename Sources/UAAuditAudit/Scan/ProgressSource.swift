import UAAuditInput

/// Passes reads through and adds the bytes read to a ``ProgressCounter``: the bytes of the
/// input itself (compressed ones for gzip), so that done and total are in the same unit.
///
/// One counter update per read (a block of up to 1 MiB), never per line.
struct ProgressSource<Base: ByteSource>: ByteSource {
    var base: Base
    let progress: ProgressCounter?

    var consumed: Int64 { base.consumed }
    var fileOffset: Int64 { base.fileOffset }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let n = try base.read(into: buffer)
        progress?.add(bytes: n, lines: 0)
        return n
    }
}
