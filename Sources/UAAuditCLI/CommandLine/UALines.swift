import Glibc
import UAAuditCore

/// Reads User-Agents one per line from stdin or a file, in constant memory: the reader's
/// buffer is allocated once, and `beforeWaiting` runs before every read that may block, so
/// buffered output is flushed before uaaudit waits for more input (a pipe answered line by line).
enum UALines {
    /// The longest UA line read whole; longer lines are reported by length and skipped.
    static let maxLineBytes = 64 << 10

    static func read(
        fd: Int32, path: String, beforeWaiting: @escaping () -> Void,
        line: @escaping (UnsafeRawBufferPointer) -> Void, overlong: @escaping (Int) -> Void
    ) throws(InputError) {
        let reader = LineReader(blockSize: 64 << 10, maxLineBytes: maxLineBytes)
        var source = FlushingSource(
            base: FileRangeSource(fd: fd, path: path, seekable: false), beforeRead: beforeWaiting)
        var sink = Sink(onLine: line, onOverlong: overlong)
        try reader.read(&source, into: &sink)
    }

    struct Sink: LineSink {
        let onLine: (UnsafeRawBufferPointer) -> Void
        let onOverlong: (Int) -> Void
        mutating func line(_ bytes: UnsafeRawBufferPointer) { onLine(bytes) }
        mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int) { onOverlong(length) }
    }

    struct FlushingSource: ByteSource {
        var base: FileRangeSource
        let beforeRead: () -> Void
        var consumed: Int64 { base.consumed }
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
            beforeRead()
            return try base.read(into: buffer)
        }
    }
}

/// Output collected in one buffer and written with few `write(2)`s (64 KiB at a time, and
/// whenever uaaudit is about to wait for input).
final class BufferedOutput {
    private var buffer: [UInt8] = []
    private let console: Console
    static let flushBytes = 64 << 10

    init(console: Console) {
        self.console = console
        buffer.reserveCapacity(BufferedOutput.flushBytes + 4096)
    }

    var closed: Bool { console.stdoutClosed }

    @inline(__always)
    func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= BufferedOutput.flushBytes { flush() }
    }

    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= BufferedOutput.flushBytes { flush() }
    }

    func append(_ text: String) { append(Array(text.utf8)) }

    func flush() {
        guard !buffer.isEmpty else { return }
        console.out(bytes: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
