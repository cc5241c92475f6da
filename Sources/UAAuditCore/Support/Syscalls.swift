#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The few POSIX calls uaaudit makes, with errno turned into a typed ``SystemError``.
///
/// Every Glibc call of the core library lives here, as in swift-system's `Syscalls.swift`.
public enum Syscalls {
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws(SystemError) -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
        if fd < 0 { throw SystemError(errno: errno, call: "open") }
        return fd
    }

    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Reads up to `count` bytes; retries on EINTR. Returns 0 at end of file.
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(errno: errno, call: "read")
        }
    }

    /// Reads into `buffer[from...]` (pread at `offset` when given); returns the byte count, 0 at the end.
    public static func read(_ fd: Int32, into buffer: inout [UInt8], from start: Int = 0, offset: Int64? = nil)
        throws(SystemError) -> Int
    {
        let result: Result<Int, SystemError> = buffer.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress! + start
            let count = raw.count - start
            do throws(SystemError) {
                if let offset { return .success(try pread(fd, p, count, offset)) }
                return .success(try read(fd, p, count))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads up to `count` bytes at `offset`; retries on EINTR. Returns 0 at end of file.
    public static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64)
        throws(SystemError) -> Int
    {
        while true {
            let n = Glibc.pread(fd, buffer, count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(errno: errno, call: "pread")
        }
    }

    /// Writes all of `count` bytes; retries on EINTR and short writes.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) throws(SystemError) {
        var done = 0
        while done < count {
            let n = Glibc.write(fd, buffer + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(errno: errno, call: "write")
            }
            done += n
        }
    }

    public static func fsync(_ fd: Int32) throws(SystemError) {
        if Glibc.fsync(fd) != 0 { throw SystemError(errno: errno, call: "fsync") }
    }

    public static func rename(_ from: String, _ to: String) throws(SystemError) {
        if Glibc.rename(from, to) != 0 { throw SystemError(errno: errno, call: "rename") }
    }

    public static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    public static func fchmod(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        if Glibc.fchmod(fd, mode) != 0 { throw SystemError(errno: errno, call: "fchmod") }
    }

    /// File type and size of an open descriptor.
    public static func fstat(_ fd: Int32) throws(SystemError) -> (isRegular: Bool, size: Int64) {
        var st = stat()
        if Glibc.fstat(fd, &st) != 0 { throw SystemError(errno: errno, call: "fstat") }
        return ((st.st_mode & S_IFMT) == S_IFREG, Int64(st.st_size))
    }

    public static func getpid() -> Int32 { Glibc.getpid() }

    /// The first `count` bytes' position of `byte` in `buffer`, like memchr(3).
    @inline(__always)
    public static func memchr(_ buffer: UnsafeRawPointer, _ byte: UInt8, _ count: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(Glibc.memchr(buffer, Int32(byte), count))
    }

    @inline(__always)
    public static func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
        Glibc.memcmp(a, b, count)
    }

    public static func messageFor(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A failed system call, with its errno.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let errno: Int32
    public let call: String

    public init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    public var description: String { Syscalls.messageFor(errno: errno) }
}
