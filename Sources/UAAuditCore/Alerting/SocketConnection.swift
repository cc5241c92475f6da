#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A TCP connection with a deadline: every socket call of the alerting code, as
/// ``Syscalls`` has the file calls. Non-blocking; each step waits with `poll` for at most the
/// time left before the deadline (a monotonic clock), so nothing outlives it.
final class SocketConnection {
    enum Failure: Error, Equatable {
        case timeout
        case refused
        case hostNotFound
        case other(String)
    }

    private let fd: Int32
    private let deadline: Double

    /// Seconds of a monotonic clock.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Connects to `host:port` before `deadline` (name resolution included, though
    /// `getaddrinfo` itself cannot be interrupted: use an address or a fast resolver).
    init(host: String, port: Int, deadline: Double) throws(Failure) {
        self.deadline = deadline
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, String(port), &hints, &list) == 0, let first = list else { throw .hostNotFound }
        defer { freeaddrinfo(list) }
        var lastFailure = Failure.refused
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue)
                    | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            if fd < 0 { continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do throws(Failure) {
                    try Self.wait(fd, for: Int16(POLLOUT), until: deadline)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        self.fd = fd
                        return
                    }
                    lastFailure = error == ECONNREFUSED ? .refused : .other(String(cString: strerror(error)))
                } catch {
                    Glibc.close(fd)
                    throw error
                }
            }
            Glibc.close(fd)
        }
        throw lastFailure
    }

    deinit { Glibc.close(fd) }

    /// Writes all of `bytes` before the deadline.
    func write(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
            } else if n < 0, errno == EAGAIN || errno == EINTR {
                try Self.wait(fd, for: Int16(POLLOUT), until: deadline)
            } else {
                throw .other("send: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Reads what is there (at most `limit` bytes), waiting until the deadline; empty at the end.
    func read(limit: Int) throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(limit, 1))
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return Array(buffer.prefix(n)) }
            guard errno == EAGAIN || errno == EINTR else {
                throw .other("recv: \(String(cString: strerror(errno)))")
            }
            try Self.wait(fd, for: Int16(POLLIN), until: deadline)
        }
    }

    /// Waits until `fd` is ready for `events`, or throws ``Failure/timeout`` at the deadline.
    private static func wait(_ fd: Int32, for events: Int16, until deadline: Double) throws(Failure) {
        while true {
            let left = deadline - now()
            if left <= 0 { throw .timeout }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(min((left * 1000).rounded(.up), Double(Int32.max))))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .other("poll: \(String(cString: strerror(errno)))") }
        }
    }
}
