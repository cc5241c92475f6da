import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `uaaudit` and gives its peak resident memory (`ru_maxrss` from wait4, KiB).
///
/// Not as a direct child of the test process: posix_spawn shares the parent's memory until
/// exec (CLONE_VM), and Linux then carries the parent's high-water mark into the child's
/// `ru_maxrss`, so a test process that once held 200 MB would make every child "use" 200 MB.
/// A small python3 (about 10 MiB) forks and execs uaaudit instead, and reports the rusage.
enum MeasuredRun {
    /// The most memory a scan may take, whatever its input: 64 MiB. The process alone (Swift
    /// runtime, Foundation) is about 25 MiB, and a scan measures about 30-38 MiB
    /// (read blocks, a 4 MiB UA cache and bounded tables per thread); 64 MiB leaves room for
    /// that but not for anything that grows with the input (a 50 MB line held whole, or
    /// millions of distinct UAs kept, would pass it). docs/performance.md states it.
    static let peakMemoryBoundKiB = 64 << 10

    /// CONTRACTS: a scan's peak RSS is at most its idle RSS (the same command on an empty
    /// input) plus 16 MiB, whatever the input and the thread count.
    static let workingMemoryKiB = 16 << 10

    /// The peak RSS of `scan` with `options` on an empty file: the idle the bound adds to.
    static func idleKiB(options: [String]) throws -> Int {
        let dir = try Scratch()
        let empty = try dir.write("empty.log", "")
        return try run(["scan", "--json"] + options + [empty], stdinFile: "/dev/null").peakKiB
    }

    static let launcher = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        with open(sys.argv[1], "w") as f:
            f.write(str(usage.ru_maxrss))
        code = os.waitstatus_to_exitcode(status)
        sys.exit(code if code >= 0 else 128 - code)
        """

    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
        var peakKiB: Int
    }

    /// Runs `uaaudit args` with `stdin` (a descriptor: a file or a pipe's read end, left open).
    static func run(_ args: [String], stdin: Int32) throws -> Result {
        guard let python = ExternalTool.find(.python3, test: "peak memory") else {
            throw POSIXError(.ENOENT)
        }
        let scratch = try Scratch()
        for name in ["stdout", "stderr", "peak"] {
            _ = FileManager.default.createFile(atPath: scratch.path(name), contents: nil)
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("stdout")))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("stderr")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", launcher, scratch.path("peak"), Tool.binary.path] + args
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = "0"
        process.environment = environment
        process.standardInput = FileHandle(fileDescriptor: stdin, closeOnDealloc: false)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let peak = String(decoding: try contents(scratch.path("peak")), as: UTF8.self)
        return Result(
            status: process.terminationStatus, stdout: try contents(scratch.path("stdout")),
            stderr: String(decoding: try contents(scratch.path("stderr")), as: UTF8.self),
            peakKiB: Int(peak) ?? -1)
    }

    /// Runs `uaaudit args` reading `path` as its stdin.
    static func run(_ args: [String], stdinFile path: String) throws -> Result {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .ENOENT) }
        defer { close(fd) }
        return try run(args, stdin: fd)
    }

    /// Runs `uaaudit args` with a pipe on its stdin that `produce` fills from another thread
    /// (it should stop at the first failed write: the child may have ended early).
    static func run(_ args: [String], producing produce: @escaping @Sendable (Int32) -> Void) throws -> Result {
        signal(SIGPIPE, SIG_IGN)  // a child that ends early must not take the test process with it
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EMFILE) }
        // Neither end may leak into another child: the reader would never see the end of input.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let writer = ends[1]
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            produce(writer)
            close(writer)
            done.signal()
        }
        let result = Swift.Result { try run(args, stdin: ends[0]) }
        close(ends[0])  // the writer now gets EPIPE if the child stopped reading early
        done.wait()
        return try result.get()
    }

    /// Writes all of `bytes` to `fd`; false when a write failed.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                done += n
            }
            return true
        }
    }
}
