#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The few POSIX calls uaaudit makes, with errno turned into a typed ``SystemError``.
///
/// Every Glibc call of the core's stages lives here, as in swift-system's `Syscalls.swift`,
/// but two that keep a layout of their own beside their one caller: statx(2) found at run
/// time (`UAAuditRun/Incremental/BirthTime`) and lseek(2)'s `SEEK_DATA`/`SEEK_HOLE`
/// (`UAAuditRun/Incremental/SparseFile`).
package enum Syscalls {
    package static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws(SystemError) -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
        if fd < 0 { throw SystemError(errno: errno, call: "open") }
        return fd
    }

    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Reads up to `count` bytes; retries on EINTR. Returns 0 at end of file.
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws(SystemError) -> Int {
        var count = count
        #if DEBUG
            if let fault = ReadFault.configured {
                guard let allowed = fault.allowed(fd: fd, offset: Int64(lseek(fd, 0, SEEK_CUR)), count: count) else {
                    throw SystemError(errno: EIO, call: "read")
                }
                count = allowed
            }
        #endif
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(errno: errno, call: "read")
        }
    }

    /// Reads into `buffer[from...]` (pread at `offset` when given); returns the byte count, 0 at the end.
    package static func read(_ fd: Int32, into buffer: inout [UInt8], from start: Int = 0, offset: Int64? = nil)
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

    /// Everything left to read from `fd` (stdin, a pipe), in 64 KiB reads.
    package static func readToEnd(_ fd: Int32) throws(SystemError) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = try read(fd, into: &buffer)
            if n == 0 { return all }
            all += buffer[..<n]
        }
    }

    /// Reads up to `count` bytes at `offset`; retries on EINTR. Returns 0 at end of file.
    package static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64)
        throws(SystemError) -> Int
    {
        var count = count
        #if DEBUG
            if let fault = ReadFault.configured {
                guard let allowed = fault.allowed(fd: fd, offset: offset, count: count) else {
                    throw SystemError(errno: EIO, call: "pread")
                }
                count = allowed
            }
        #endif
        while true {
            let n = Glibc.pread(fd, buffer, count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(errno: errno, call: "pread")
        }
    }

    /// Writes all of `count` bytes; retries on EINTR and short writes.
    /// Writes all of `bytes` to `fd` (retrying short writes and EINTR).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        let result: Result<Void, SystemError> = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(()) }
            do throws(SystemError) {
                return .success(try writeAll(fd, base, buffer.count))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) throws(SystemError) {
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

    static func fsync(_ fd: Int32) throws(SystemError) {
        if Glibc.fsync(fd) != 0 { throw SystemError(errno: errno, call: "fsync") }
    }

    static func ftruncate(_ fd: Int32, _ length: Int64) throws(SystemError) {
        if Glibc.ftruncate(fd, off_t(length)) != 0 { throw SystemError(errno: errno, call: "ftruncate") }
    }

    /// Allocates `length` bytes of the file from its start (posix_fallocate: blocks taken now).
    static func allocate(_ fd: Int32, _ length: Int64) throws(SystemError) {
        let result = posix_fallocate(fd, 0, off_t(length))
        if result != 0 { throw SystemError(errno: result, call: "posix_fallocate") }
    }

    static func rename(_ from: String, _ to: String) throws(SystemError) {
        if Glibc.rename(from, to) != 0 { throw SystemError(errno: errno, call: "rename") }
    }

    static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    static func fchmod(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        if Glibc.fchmod(fd, mode) != 0 { throw SystemError(errno: errno, call: "fchmod") }
    }

    /// File type and size of an open descriptor.
    package static func fstat(_ fd: Int32) throws(SystemError) -> (isRegular: Bool, size: Int64) {
        var st = stat()
        if Glibc.fstat(fd, &st) != 0 { throw SystemError(errno: errno, call: "fstat") }
        return ((st.st_mode & S_IFMT) == S_IFREG, Int64(st.st_size))
    }

    static func getpid() -> Int32 { Glibc.getpid() }

    /// The size of a regular file by stat(2), links followed; nil for anything else and for
    /// what cannot be looked at.
    package static func regularFileSize(_ path: String) -> Int64? {
        var st = Glibc.stat()
        guard callStat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    /// False only when no process has this id (kill(2) with signal 0 says ESRCH); a process
    /// of another user exists too.
    static func processExists(_ pid: Int32) -> Bool {
        Glibc.kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The value of an environment variable (getenv(3)).
    package static func environment(_ name: String) -> String? {
        Glibc.getenv(name).map { String(cString: $0) }
    }

    /// Sends `signal` to the calling thread (raise(3)).
    package static func raise(_ signal: Int32) { _ = Glibc.raise(signal) }

    /// Sends `signal` to this process (kill(2) on its own id), for any of its threads to take.
    package static func signalProcess(_ signal: Int32) { _ = Glibc.kill(Glibc.getpid(), signal) }

    package static func sleep(milliseconds: Int) { usleep(useconds_t(milliseconds * 1000)) }

    /// The wall clock in nanoseconds since the epoch: the clock of files' modification times.
    package static func wallClockNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// This machine's name from gethostname(2): no DNS lookup, so it cannot hang without a resolver.
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    private static func callStat(_ path: String, _ st: inout Glibc.stat) -> Int32 {
        stat(path, &st)
    }

    /// Keeps malloc from holding freed memory: blocks of 256 KiB and more (a chunk's tables)
    /// are always mmapped and given back when freed. glibc's default raises that threshold
    /// after the first large free, and the per-chunk tables then stayed in the heaps of the
    /// threads that made them, so peak memory depended on which thread took which chunk.
    package static func returnLargeBlocksToTheSystem() {
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's <malloc.h>, not in the Glibc module
        _ = glibcMallopt(mmapThreshold, 256 << 10)
    }

    /// The path with every symbolic link, `.` and `..` resolved (realpath(3)); nil when it
    /// cannot be resolved (it does not exist).
    package static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The login name of user `uid`, or `uid N` when the system has none.
    package static func userName(_ uid: UInt32) -> String {
        guard let entry = getpwuid(uid_t(uid)), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }

    /// The effective user id (geteuid(2)): whose rights a file operation has.
    package static func effectiveUserID() -> uid_t { geteuid() }

    /// What stat(2) says of a path: nil when it does not exist; other failures throw.
    package static func status(_ path: String) throws(SystemError) -> FileStatus? {
        var st = Glibc.stat()
        let rc: Int32 = callStat(path, &st)
        if rc != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemError(errno: errno, call: "stat")
        }
        return FileStatus(st)
    }

    /// What lstat(2) says of a path (of a symbolic link itself, not what it names): nil when it
    /// does not exist; other failures throw.
    package static func linkStatus(_ path: String) throws(SystemError) -> FileStatus? {
        var st = Glibc.stat()
        if lstat(path, &st) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemError(errno: errno, call: "lstat")
        }
        return FileStatus(st)
    }

    /// The kind of file at `path` (lstat(2) unless `followingLinks`); nil when it does not exist.
    package static func fileKind(_ path: String, followingLinks: Bool) -> FileKind? {
        var st = Glibc.stat()
        guard (followingLinks ? stat(path, &st) : lstat(path, &st)) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFLNK: return .symbolicLink
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        default: return .other
        }
    }

    /// A symbolic link's target as written; nil when `path` is no link.
    package static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n >= 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets O_NONBLOCK on `fd` (reads that would wait fail with EAGAIN instead).
    package static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// A handle on the file at `path` itself, a symbolic link not followed (O_PATH): what
    /// ``fstatus(_:)`` and ``readLink(handle:)`` say of it is of one and the same file, however
    /// the name is swapped meanwhile. Nil when nothing is there (or it cannot be reached).
    static func openNode(_ path: String) -> Int32? {
        // O_PATH (010000000), which Glibc's Swift overlay does not export.
        let fd = Glibc.open(path, 0o10_000_000 | O_NOFOLLOW | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// The target of the symbolic link a handle from ``openNode(_:)`` holds; nil when it holds
    /// no link.
    static func readLink(handle fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlinkat(fd, "", &buffer, 4096)
        guard n >= 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func fstatus(_ fd: Int32) throws(SystemError) -> FileStatus {
        var st = Glibc.stat()
        if Glibc.fstat(fd, &st) != 0 { throw SystemError(errno: errno, call: "fstat") }
        return FileStatus(st)
    }

    /// Takes an exclusive flock(2) without waiting; false when another process holds it.
    package static func tryLockExclusive(_ fd: Int32) throws(SystemError) -> Bool {
        let rc: Int32 = flock(fd, LOCK_EX | LOCK_NB)
        if rc == 0 { return true }
        if errno == EWOULDBLOCK || errno == EINTR { return false }
        throw SystemError(errno: errno, call: "flock")
    }

    /// The names in a directory (without `.` and `..`).
    package static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        guard let dir = opendir(path) else { throw SystemError(errno: errno, call: "opendir") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The first `count` bytes' position of `byte` in `buffer`, like memchr(3).
    @inline(__always)
    package static func memchr(_ buffer: UnsafeRawPointer, _ byte: UInt8, _ count: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(Glibc.memchr(buffer, Int32(byte), count))
    }

    @inline(__always)
    package static func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
        Glibc.memcmp(a, b, count)
    }

    package static func messageFor(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The paths matching a shell `pattern`, sorted (as nginx's `include` expands them); none
    /// when nothing matches.
    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for i in 0..<Int(result.gl_pathc) {
            if let p = result.gl_pathv[i] { paths.append(String(cString: p)) }
        }
        return paths.sorted()
    }

    /// True when `path` matches the shell `pattern` (`*` does not cross `/`).
    static func fnmatch(_ pattern: String, _ path: String) -> Bool {
        Glibc.fnmatch(pattern, path, FNM_PATHNAME) == 0
    }

    /// The canonical path of an existing file, or nil.
    static func realpath(_ path: String) -> String? {
        guard let p = Glibc.realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether members of group `group` (by name) may read `path` through mode bits: every
    /// directory above it lets them search it, and the file is the group's with group read,
    /// or readable by all. Nil when it cannot be told (no such group, a stat failed).
    package static func groupCanRead(_ path: String, group: String) -> GroupReadAccess? {
        guard let entry = getgrnam(group) else { return nil }
        let gid = entry.pointee.gr_gid
        func allows(_ st: stat, all: mode_t, group: mode_t) -> Bool {
            st.st_mode & all != 0 || (st.st_gid == gid && st.st_mode & group != 0)
        }
        let real = realpath(path) ?? path
        var directory = real
        // The file's own directory: it is listed too, for the rotated files.
        var own: (path: String, mode: stat)?
        while let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
            directory = String(directory[..<slash])
            var st = stat()
            guard stat(directory, &st) == 0 else { return nil }
            if !allows(st, all: S_IXOTH, group: S_IXGRP) { return .directoryClosed(directory) }
            if own == nil { own = (directory, st) }
        }
        var st = stat()
        guard stat(real, &st) == 0 else { return nil }
        guard allows(st, all: S_IROTH, group: S_IRGRP) else { return .fileClosed }
        if let own, !allows(own.mode, all: S_IROTH, group: S_IRGRP) { return .directoryUnlisted(own.path) }
        return .readable
    }

    /// True when the calling user may read `path` (by `access(2)`, real ids).
    package static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }
}

/// What mode bits say of a group reading a file.
package enum GroupReadAccess: Equatable, Sendable {
    case readable
    /// The file is neither the group's with group read nor readable by all.
    case fileClosed
    /// This directory above the file does not let the group search it.
    case directoryClosed(String)
    /// The file's directory does not let the group list it (`run` looks there for its rotated
    /// files).
    case directoryUnlisted(String)
}

/// The parts of stat(2) uaaudit uses.
/// What kind of file a path names, as messages say it.
package enum FileKind: String, Sendable, Equatable {
    case regular = "a regular file"
    case symbolicLink = "a symbolic link"
    case directory = "a directory"
    case fifo = "a FIFO"
    case socket = "a socket"
    case characterDevice = "a character device"
    case blockDevice = "a block device"
    case other = "not a regular file"
}

package struct FileStatus: Sendable, Equatable {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    package let isRegular: Bool
    package let isDirectory: Bool
    package let isFIFO: Bool
    /// A symbolic link (only from lstat: ``Syscalls/linkStatus(_:)``).
    package let isSymbolicLink: Bool
    /// Modification time in nanoseconds since the epoch.
    package let modified: Int64
    /// The permission bits (`st_mode & 0o777`).
    package let permissions: mode_t
    /// The owner's user id.
    package let owner: UInt32
    /// The sticky bit (`S_ISVTX`): in a directory, only a file's owner (or the directory's)
    /// may remove or rename it, as in /tmp.
    var isSticky = false

    /// A status made up for tests of code that decides from statuses (the planner's tables).
    package init(
        device: UInt64, inode: UInt64, size: Int64, isRegular: Bool = true, modified: Int64, owner: UInt32 = 0,
        isSymbolicLink: Bool = false
    ) {
        self.owner = owner
        self.isSymbolicLink = isSymbolicLink
        self.device = device
        self.inode = inode
        self.size = size
        self.isRegular = isRegular
        self.modified = modified
        self.isDirectory = false
        self.isFIFO = false
        self.permissions = 0o644
    }

    init(_ st: stat) {
        permissions = st.st_mode & 0o777
        isSticky = st.st_mode & S_ISVTX != 0
        owner = UInt32(st.st_uid)
        isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
        isFIFO = (st.st_mode & S_IFMT) == S_IFIFO
        isSymbolicLink = (st.st_mode & S_IFMT) == S_IFLNK
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        isRegular = (st.st_mode & S_IFMT) == S_IFREG
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }
}

/// A failed system call, with its errno.
package struct SystemError: Error, Equatable, CustomStringConvertible {
    package let errno: Int32
    let call: String

    init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    package var description: String { Syscalls.messageFor(errno: errno) }

}

/// glibc's mallopt(3); <malloc.h> is not part of the Glibc module.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
