import Glibc

/// Lines of a descriptor (stdin, a UA list), one at a time, in constant memory, for the
/// commands that answer line by line (`classify`, `rules test`): the reader's buffer is
/// allocated once, and `beforeWaiting` runs before every read that may block, so output
/// buffered by the caller is flushed before uaaudit waits for more input; when `stop` then
/// says so (stdout was closed), reading ends as if the input had.
///
/// Lines are lent as a `RawSpan`: the caller sees bytes, never a pointer.
package enum LineStream {
    package static func read(
        fd: Int32, path: String, maxLineBytes: Int, beforeWaiting: @escaping () -> Void,
        stop: @escaping () -> Bool = { false }, line: @escaping (RawSpan) -> Void, overlong: @escaping (Int) -> Void
    ) throws(InputError) {
        let reader = LineReader(blockSize: 64 << 10, maxLineBytes: maxLineBytes)
        var source = FlushingSource(
            base: FileRangeSource(fd: fd, path: path, seekable: false), beforeRead: beforeWaiting, stop: stop)
        var sink = Sink(onLine: line, onOverlong: overlong)
        try reader.read(&source, into: &sink)
    }

    /// Why a named input could not be read: opening it failed (nothing was read), or reading
    /// did (the lines before were handed over).
    package enum Failure: Error {
        case open(SystemError)
        case read(InputError)
    }

    /// Opens `path` (`-`: stdin) and reads it as ``read(fd:path:maxLineBytes:beforeWaiting:stop:line:overlong:)``.
    package static func read(
        path: String, maxLineBytes: Int, beforeWaiting: @escaping () -> Void, stop: @escaping () -> Bool = { false },
        line: @escaping (RawSpan) -> Void, overlong: @escaping (Int) -> Void
    ) throws(Failure) {
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            do {
                fd = try Syscalls.open(path, flags: O_RDONLY | O_CLOEXEC)
            } catch {
                throw .open(error)
            }
        }
        defer { if fd != 0 { Syscalls.close(fd) } }
        do {
            try read(
                fd: fd, path: path, maxLineBytes: maxLineBytes, beforeWaiting: beforeWaiting, stop: stop, line: line,
                overlong: overlong)
        } catch {
            throw .read(error)
        }
    }

    private struct Sink: LineSink {
        let onLine: (RawSpan) -> Void
        let onOverlong: (Int) -> Void
        mutating func line(_ bytes: UnsafeRawBufferPointer) { onLine(RawSpan(_unsafeBytes: bytes)) }
        mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int) { onOverlong(length) }
    }

    private struct FlushingSource: ByteSource {
        var base: FileRangeSource
        let beforeRead: () -> Void
        /// True when the reader should end as at end of input (the output was closed).
        let stop: () -> Bool
        var consumed: Int64 { base.consumed }
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
            beforeRead()
            if stop() { return 0 }
            return try base.read(into: buffer)
        }
    }
}
