import UAAuditInput

/// Reads User-Agents one per line from stdin or a file, in constant memory
/// (``LineStream``): `beforeWaiting` runs before every read that may block, so buffered
/// output is flushed before uaaudit waits for more input (a pipe answered line by line).
enum UALines {
    /// The longest UA line read whole; longer lines are reported by length and skipped.
    static let maxLineBytes = 64 << 10

    static func read(
        fd: Int32, path: String, beforeWaiting: @escaping () -> Void, stop: @escaping () -> Bool = { false },
        line: @escaping (RawSpan) -> Void, overlong: @escaping (Int) -> Void
    ) throws(InputError) {
        try LineStream.read(
            fd: fd, path: path, maxLineBytes: maxLineBytes, beforeWaiting: beforeWaiting, stop: stop, line: line,
            overlong: overlong)
    }

    /// The same, from the file at `path` (`-`: stdin), opened by the core.
    static func read(
        path: String, beforeWaiting: @escaping () -> Void, line: @escaping (RawSpan) -> Void,
        overlong: @escaping (Int) -> Void
    ) throws(LineStream.Failure) {
        try LineStream.read(
            path: path, maxLineBytes: maxLineBytes, beforeWaiting: beforeWaiting, line: line, overlong: overlong)
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
    func append(_ bytes: RawSpan) {
        bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= BufferedOutput.flushBytes { flush() }
    }

    func append(_ text: String) { append(Array(text.utf8)) }

    func flush() {
        guard !buffer.isEmpty else { return }
        console.out(bytes: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
