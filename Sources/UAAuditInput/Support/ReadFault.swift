#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Failure injection for the read-error tests, in debug builds only (a real EIO cannot be
/// made on demand): `UAAUDIT_TEST_READ_FAIL=SUFFIX@BYTE` makes reads of a file whose path ends
/// in SUFFIX stop short at BYTE and fail with EIO from there on, as over a bad sector;
/// `SUFFIX@BYTE-END` fails only reads that start in BYTE..<END (a bad region).
/// ``Syscalls`` asks it before each read; release builds never do.
struct ReadFault: Sendable {
    let suffix: String
    let byte: Int64
    var end: Int64? = nil

    /// The fault the environment asks for, read once.
    static let configured: ReadFault? = {
        guard let text = Syscalls.environment("UAAUDIT_TEST_READ_FAIL") else { return nil }
        guard let at = text.lastIndex(of: "@") else { return nil }
        let range = text[text.index(after: at)...].split(separator: "-", maxSplits: 1)
        guard let byte = range.first.flatMap({ Int64($0) }) else { return nil }
        return ReadFault(suffix: String(text[..<at]), byte: byte, end: range.count == 2 ? Int64(range[1]) : nil)
    }()

    /// How many of `count` bytes at `offset` of `fd` may be read; nil: the read fails with EIO.
    func allowed(fd: Int32, offset: Int64, count: Int) -> Int? {
        guard offset >= 0, ReadFault.path(of: fd)?.hasSuffix(suffix) == true else { return count }
        if let end, offset >= end { return count }
        if offset >= byte { return nil }
        return Int(min(Int64(count), byte - offset))
    }

    private static func path(of fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
