/// Receives the lines a ``LineReader`` finds.
package protocol LineSink {
    /// One line, without its `\n`; the bytes are valid only during the call.
    mutating func line(_ bytes: UnsafeRawBufferPointer)
    /// A line longer than the reader's limit, once it has ended: its first bytes and its whole length.
    mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int)
    /// The line that starts at `p`, when the sink finds its end (a `\n` within `available`
    /// bytes) as fast as the reader would: handles it as ``line(_:)`` would and returns its
    /// length. Nil when it did not; the reader then finds the end and calls ``line(_:)``.
    mutating func line(at p: UnsafeRawPointer, available: Int) -> Int?
}

extension LineSink {
    mutating func line(at p: UnsafeRawPointer, available: Int) -> Int? { nil }
}

/// Splits a byte source into lines with big reads and memchr, in a buffer allocated once.
///
/// A last line without `\n` is still a line. A line longer than `maxLineBytes`, complete in the
/// buffer or not, is handed to ``LineSink/overlongLine(prefix:length:)`` instead (and skipped
/// without being held in memory when it does not fit): ``LineSink/line(_:)`` never gets more
/// than `maxLineBytes` bytes, so sinks may size their scratch buffers to that limit.
package final class LineReader {
    package static let defaultBlockSize = 256 << 10
    static let defaultMaxLineBytes = 1 << 20
    /// How much of an overlong line is kept as its sample.
    static let overlongPrefixBytes = 512
    @usableFromInline static let minimumRead = 16

    @usableFromInline let blockSize: Int
    @usableFromInline let maxLineBytes: Int
    @usableFromInline let capacity: Int
    @usableFromInline let buffer: UnsafeMutableRawPointer
    @usableFromInline let overlongPrefix: UnsafeMutableRawPointer
    @usableFromInline var overlongPrefixCount = 0

    package init(blockSize: Int = defaultBlockSize, maxLineBytes: Int = defaultMaxLineBytes) {
        self.blockSize = max(blockSize, 16)
        self.maxLineBytes = max(maxLineBytes, 16)
        // Room for the 63 bytes a block's start may be moved by (see ``read(_:into:)``).
        self.capacity = self.blockSize + self.maxLineBytes + 64
        self.buffer = .allocate(byteCount: capacity, alignment: 64)
        self.overlongPrefix = .allocate(byteCount: LineReader.overlongPrefixBytes, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        overlongPrefix.deallocate()
    }

    /// Reads `source` to its end, handing every line to `sink`.
    ///
    /// Every byte is held at a buffer address equal to its offset in the source's file modulo
    /// 64 (``ByteSource/fileOffset``; the buffer is 64-byte aligned): the unfinished line at the
    /// end of a block moves to the front only as far as keeps that true, so each read lands
    /// where the kernel copies from the page cache with source and destination aligned alike
    /// (5–8% less time in that copy than at unrelated offsets, measured with `pread` alone).
    ///
    /// - Throws: the source's ``InputError``; lines before the failure have been delivered.
    /// Inlinable, so that the scan's sink is specialised into this loop in the module that
    /// calls it (the sink's methods run per line).
    @inlinable
    package func read<Source: ByteSource, Sink: LineSink>(_ source: inout Source, into sink: inout Sink)
        throws(InputError)
    {
        var held = Int(truncatingIfNeeded: source.fileOffset & 63)  // the bytes held start here
        var filled = held  // bytes held in buffer[held..<filled]
        var overlong = -1  // length so far of an overlong line being skipped, or -1
        while true {
            // Read a block at a time: the room kept for long lines is touched only by long lines,
            // so memory in use stays near the block size.
            let room = min(capacity - filled, max(blockSize, LineReader.minimumRead))
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: room))
            if n == 0 { break }
            let end = filled + n
            var start = held
            if overlong >= 0 {
                // Skipping the rest of an overlong line: look for its end in the new bytes only.
                if let nl = Syscalls.memchr(buffer + start, 0x0A, end - start) {
                    let cut = nl - UnsafeRawPointer(buffer)
                    finishOverlong(length: overlong + cut - start, into: &sink)
                    overlong = -1
                    start = cut + 1
                } else {
                    overlong += end - start
                    held = end & 63
                    filled = held
                    continue
                }
            }
            while start < end {
                // A line found by the sink has at most `maxLineBytes` bytes: its `\n` is within them.
                if let length = sink.line(at: buffer + start, available: min(end - start, maxLineBytes + 1)) {
                    start += length + 1
                    continue
                }
                guard let nl = Syscalls.memchr(buffer + start, 0x0A, end - start) else { break }
                let cut = nl - UnsafeRawPointer(buffer)
                deliver(UnsafeRawBufferPointer(start: buffer + start, count: cut - start), into: &sink)
                start = cut + 1
            }
            let rest = end - start
            if rest > maxLineBytes {
                // Keep the prefix as a sample, then forget the rest of the line.
                overlongPrefixCount = min(rest, LineReader.overlongPrefixBytes)
                overlongPrefix.copyMemory(from: buffer + start, byteCount: overlongPrefixCount)
                overlong = rest
                held = end & 63
                filled = held
                continue
            }
            held = start & 63
            if rest > 0, start != held { (buffer + held).copyMemory(from: buffer + start, byteCount: rest) }
            filled = held + rest
        }
        if overlong >= 0 {
            finishOverlong(length: overlong, into: &sink)
        } else if filled > held {
            deliver(UnsafeRawBufferPointer(start: buffer + held, count: filled - held), into: &sink)
        }
    }

    /// Hands a whole line to the sink, or, when it is longer than the limit (a complete line can
    /// be: the buffer holds a block beyond the limit), as an overlong line. No sink ever sees a
    /// line longer than `maxLineBytes`, whatever the block size.
    @inlinable @inline(__always)
    func deliver<Sink: LineSink>(_ line: UnsafeRawBufferPointer, into sink: inout Sink) {
        if line.count > maxLineBytes {
            sink.overlongLine(
                prefix: UnsafeRawBufferPointer(rebasing: line.prefix(LineReader.overlongPrefixBytes)),
                length: line.count)
        } else {
            sink.line(line)
        }
    }

    @inlinable
    func finishOverlong<Sink: LineSink>(length: Int, into sink: inout Sink) {
        sink.overlongLine(
            prefix: UnsafeRawBufferPointer(start: overlongPrefix, count: overlongPrefixCount),
            length: length)
    }
}
