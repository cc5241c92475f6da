import CZlib

/// zlib's inflate behind a small Swift type: the only file that imports `CZlib`.
///
/// The `z_stream` lives at a fixed heap address, because zlib's state points back at it.
final class Inflater {
    enum Step {
        /// Produced bytes (maybe 0) and needs more input or more room.
        case progress
        /// The end of a gzip member was reached.
        case memberEnd
        /// zlib found the data corrupt.
        case corrupt(String)
    }

    private let stream: UnsafeMutablePointer<z_stream>

    init() throws(InputError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = uaaudit_inflate_init_gzip(stream)
        if rc != Z_OK {
            stream.deallocate()
            throw InputError(path: "", reason: "zlib could not start (inflateInit2 returned \(rc))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Bytes of input given to ``setInput(_:count:)`` that inflate has not used yet.
    var pendingInput: Int { Int(stream.pointee.avail_in) }

    func setInput(_ pointer: UnsafeMutablePointer<UInt8>, count: Int) {
        stream.pointee.next_in = pointer
        stream.pointee.avail_in = UInt32(count)
    }

    /// Inflates into `output`; returns the step and the number of bytes written.
    func inflate(into output: UnsafeMutableRawBufferPointer) -> (Step, Int) {
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(output.count)
        let rc = CZlib.inflate(stream, Z_NO_FLUSH)
        let produced = output.count - Int(stream.pointee.avail_out)
        switch rc {
        case Z_OK, Z_BUF_ERROR: return (.progress, produced)
        case Z_STREAM_END: return (.memberEnd, produced)
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
            return (.corrupt(message), produced)
        }
    }

    /// Skips the pending input's leading zero bytes (the padding some tools and tapes leave
    /// after the last member, which gzip ignores); returns how many it skipped.
    func skipZeros() -> Int {
        var skipped = 0
        while stream.pointee.avail_in > 0, stream.pointee.next_in.pointee == 0 {
            stream.pointee.next_in += 1
            stream.pointee.avail_in -= 1
            skipped += 1
        }
        return skipped
    }

    /// Starts the next member of a multi-member gzip file.
    func reset() {
        inflateReset(stream)
    }
}
