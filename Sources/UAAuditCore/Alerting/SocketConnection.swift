import Dispatch
import Foundation

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
        /// The operator asked twice to stop (``DeliveryStop/aborted``).
        case aborted
        case refused
        case hostNotFound
        /// The server's TLS certificate was refused (another try will not mend it).
        case certificate(String)
        case other(String)
    }

    let fd: Int32
    let deadline: Double
    /// Polled while waiting: true ends the attempt with ``Failure/aborted``.
    let abort: @Sendable () -> Bool

    /// Seconds of a monotonic clock.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// One address `getaddrinfo` gave, copied out of its list.
    struct Address: Sendable {
        var family: Int32
        var type: Int32
        var proto: Int32
        var bytes: [UInt8]
    }

    /// The addresses of `host`, or nil when it has none; nil too when the deadline passes
    /// first (`getaddrinfo` cannot be interrupted: it goes on in the background and its
    /// answer is dropped), which the caller tells apart by the clock.
    static func resolve(_ host: String, port: Int, deadline: Double, abort: @Sendable () -> Bool = { false })
        throws(Failure) -> [Address]?
    {
        final class Box: @unchecked Sendable {
            var addresses: [Address]?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            var found: [Address] = []
            if getaddrinfo(host, String(port), &hints, &list) == 0 {
                var entry = list
                while let info = entry {
                    entry = info.pointee.ai_next
                    guard let address = info.pointee.ai_addr else { continue }
                    let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen))
                    found.append(
                        Address(
                            family: info.pointee.ai_family, type: info.pointee.ai_socktype,
                            proto: info.pointee.ai_protocol, bytes: Array(bytes)))
                }
                freeaddrinfo(list)
            }
            box.addresses = found.isEmpty ? nil : found
            done.signal()
        }
        while true {
            let left = max(0, deadline - now())
            let slice = min(left, DeliveryStop.pollInterval)
            if done.wait(timeout: .now() + slice) == .success { return box.addresses }
            if abort() { throw .aborted }
            if left <= slice { return nil }
        }
    }

    /// Connects to `host:port` before `deadline`, name resolution included.
    init(host: String, port: Int, deadline: Double, abort: @escaping @Sendable () -> Bool = { false }) throws(Failure) {
        self.deadline = deadline
        self.abort = abort
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard let addresses = try Self.resolve(bare, port: port, deadline: deadline, abort: abort) else {
            throw Self.now() >= deadline ? .timeout : .hostNotFound
        }
        var lastFailure = Failure.refused
        for address in addresses {
            let fd = socket(
                address.family,
                address.type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), address.proto)
            if fd < 0 { continue }
            let started = address.bytes.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            if started == 0 || errno == EINPROGRESS {
                do throws(Failure) {
                    try Self.wait(fd, for: Int16(POLLOUT), until: deadline, abort: abort)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        self.fd = fd
                        return
                    }
                    lastFailure = Self.failure(error)
                } catch {
                    Glibc.close(fd)
                    throw error
                }
            } else {
                lastFailure = Self.failure(errno)
            }
            Glibc.close(fd)
        }
        throw lastFailure
    }

    private static func failure(_ error: Int32) -> Failure {
        error == ECONNREFUSED ? .refused : .other(String(cString: strerror(error)))
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
                try Self.wait(fd, for: Int16(POLLOUT), until: deadline, abort: abort)
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
            try Self.wait(fd, for: Int16(POLLIN), until: deadline, abort: abort)
        }
    }

    /// Waits until the socket is readable (or writable), or throws ``Failure/timeout`` at the deadline.
    func wait(readable: Bool) throws(Failure) {
        try Self.wait(fd, for: Int16(readable ? POLLIN : POLLOUT), until: deadline, abort: abort)
    }

    /// Waits until `fd` is ready for `events`, or throws ``Failure/timeout`` at the deadline
    /// (``Failure/aborted`` as soon as `abort` says so: it is asked every ``DeliveryStop/pollInterval``).
    private static func wait(_ fd: Int32, for events: Int16, until deadline: Double, abort: () -> Bool) throws(Failure)
    {
        while true {
            if abort() { throw .aborted }
            let left = deadline - now()
            if left <= 0 { throw .timeout }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let slice = min(left, DeliveryStop.pollInterval)
            let ready = poll(&poller, 1, Int32((slice * 1000).rounded(.up)))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .other("poll: \(String(cString: strerror(errno)))") }
        }
    }
}
