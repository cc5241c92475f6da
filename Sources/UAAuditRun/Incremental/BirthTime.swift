import Glibc

/// When a file was created (statx's `stx_btime`), in nanoseconds since the epoch: a file on a
/// reused inode number was born after the old file's last modification, which tells them apart.
/// Nil where the kernel, the C library or the file system does not say.
enum BirthTime {
    private typealias Statx =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) ->
        Int32

    private static let statx: Statx? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "statx") else { return nil }
        return unsafeBitCast(symbol, to: Statx.self)
    }()

    /// The birth time of the file open on `fd`.
    static func of(fd: Int32) -> Int64? {
        guard let statx else { return nil }
        let atEmptyPath: Int32 = 0x1000
        let wantBirth: UInt32 = 0x800
        var buffer = [UInt64](repeating: 0, count: 32)  // struct statx: 256 bytes
        let result = buffer.withUnsafeMutableBytes { raw in statx(fd, "", atEmptyPath, wantBirth, raw.baseAddress!) }
        guard result == 0 else { return nil }
        return buffer.withUnsafeBytes { raw -> Int64? in
            let mask = raw.load(fromByteOffset: 0, as: UInt32.self)
            guard mask & wantBirth != 0 else { return nil }
            let seconds = raw.load(fromByteOffset: 80, as: Int64.self)
            let nanoseconds = raw.load(fromByteOffset: 88, as: UInt32.self)
            return seconds * 1_000_000_000 + Int64(nanoseconds)
        }
    }
}
