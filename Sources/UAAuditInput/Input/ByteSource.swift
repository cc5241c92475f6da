/// Something that fills a buffer with the next bytes of an input: a file range, stdin, a gzip stream.
package protocol ByteSource {
    /// Reads up to `buffer.count` bytes; returns 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
    /// How many bytes of the underlying input have been consumed (for error offsets and progress).
    var consumed: Int64 { get }
    /// Where in its file the first byte read comes from, when it is read from a file's page
    /// cache (0 otherwise): ``LineReader`` reads each block to an address that agrees with the
    /// file offset modulo 64, which the kernel copies faster.
    var fileOffset: Int64 { get }
}

extension ByteSource {
    package var fileOffset: Int64 { 0 }
}

/// A byte range of an open file, read with pread(2): chunks of one file can be read side by side.
package struct FileRangeSource: ByteSource {
    let fd: Int32
    let path: String
    package var position: Int64
    let end: Int64?
    let start: Int64

    /// Reads `fd` from `start` up to `end` (nil: to the end of the file; a pipe must use nil and start 0).
    package init(fd: Int32, path: String, start: Int64 = 0, end: Int64? = nil, seekable: Bool = true) {
        self.fd = fd
        self.path = path
        self.position = start
        self.start = start
        self.end = end
        self.seekable = seekable
    }

    let seekable: Bool

    package var consumed: Int64 { position - start }
    package var fileOffset: Int64 { seekable ? start : 0 }

    /// Fed every byte read, when set (stdin: its content is its identity).
    package var hasher: SHA256.Stream? = nil

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        var want = buffer.count
        if let end { want = Int(min(Int64(want), max(0, end - position))) }
        if want == 0 { return 0 }
        do {
            let n =
                seekable
                ? try Syscalls.pread(fd, buffer.baseAddress!, want, position)
                : try Syscalls.read(fd, buffer.baseAddress!, want)
            position += Int64(n)
            hasher?.update(buffer.baseAddress!, count: n)
            return n
        } catch {
            throw InputError(path: path, reason: "read failed: \(error.description)", offset: position)
        }
    }
}

/// Serves some already-read bytes first, then the wrapped source (used after sniffing gzip magic).
package struct PrefixedSource<Base: ByteSource>: ByteSource {
    var prefix: [UInt8]
    var prefixUsed = 0
    var base: Base

    package init(prefix: [UInt8], base: Base) {
        self.prefix = prefix
        self.base = base
    }

    package var consumed: Int64 { base.consumed - Int64(prefix.count - prefixUsed) }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if prefixUsed < prefix.count {
            let n = min(buffer.count, prefix.count - prefixUsed)
            prefix.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + prefixUsed, byteCount: n)
            }
            prefixUsed += n
            return n
        }
        return try base.read(into: buffer)
    }
}
