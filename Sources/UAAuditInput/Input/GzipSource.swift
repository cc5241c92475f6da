import Glibc

/// Decompresses a gzip input as it is read; concatenated members are read one after another.
///
/// A stream that ends inside a member is an error (``InputError``), not a silent short count;
/// so is corrupt data, after the bytes inflated before it (counted, and said to be unverified:
/// zlib checks a member against its CRC only at its end). Zero bytes after
/// the last member are padding, as gzip takes them; zeros followed by anything else are not.
package struct GzipSource<Base: ByteSource>: ByteSource {
    private var base: Base
    private let path: String
    private let inflater: Inflater
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity = 256 << 10
    private var baseEnded = false
    private var betweenMembers = false
    /// Zero bytes seen where the next member would start (padding if nothing else follows).
    private var padding = false
    /// An error found after bytes that were returned first: thrown by the next read.
    private var failure: InputError?
    private let storage: Storage

    /// Frees the input buffer when the last copy of the source goes away.
    private final class Storage {
        let pointer: UnsafeMutablePointer<UInt8>
        init(capacity: Int) { pointer = .allocate(capacity: capacity) }
        deinit { pointer.deallocate() }
    }

    /// True when `bytes` start with gzip's magic number.
    package static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    package init(base: Base, path: String) throws(InputError) {
        self.base = base
        self.path = path
        do {
            self.inflater = try Inflater()
        } catch {
            throw InputError(path: path, reason: error.reason)
        }
        self.storage = Storage(capacity: inputCapacity)
        self.input = storage.pointer
    }

    /// Compressed bytes consumed so far.
    package var consumed: Int64 { base.consumed - Int64(inflater.pendingInput) }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let failure { throw failure }
        while true {
            if inflater.pendingInput == 0, !baseEnded {
                let n = try base.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity))
                if n == 0 { baseEnded = true } else { inflater.setInput(input, count: n) }
            }
            if betweenMembers {
                if inflater.skipZeros() > 0 { padding = true }
                if inflater.pendingInput == 0 {
                    if baseEnded { return 0 }
                    continue
                }
                if padding {
                    throw InputError(
                        path: path, reason: "corrupt gzip data: bytes after zero padding at the end of the file",
                        offset: consumed)
                }
                inflater.reset()
                betweenMembers = false
            }
            let before = inflater.pendingInput
            let (step, produced) = inflater.inflate(into: buffer)
            switch step {
            case .memberEnd:
                betweenMembers = true
            case .corrupt(let message):
                // What was inflated before the damage is counted, as `gzip -dc` writes it out;
                // but zlib checks a member's data only at its end, so the error says that the
                // member's lines before it are not proven (damage can decode as text first).
                let error = InputError(
                    path: path,
                    reason:
                        "corrupt gzip data: \(message); the lines inflated from this member before it are counted but unverified",
                    offset: consumed, unverified: true)
                if produced > 0 {
                    failure = error
                    return produced
                }
                throw error
            case .progress:
                if produced == 0, inflater.pendingInput == before {
                    if baseEnded {
                        throw InputError(
                            path: path, reason: "truncated gzip file: it ends inside a compressed member",
                            offset: consumed, unverified: true)
                    }
                    if before > 0 {
                        throw InputError(
                            path: path, reason: "gzip stream makes no progress", offset: consumed, unverified: true)
                    }
                }
            }
            if produced > 0 { return produced }
        }
    }
}

/// Whether a path holds gzip, by its first bytes.
package enum GzipFile {
    /// Whether `path` is a regular file that starts with gzip's magic bytes. A FIFO or a
    /// device is never opened here (opening a FIFO waits for a writer).
    package static func detect(_ path: String) -> Bool {
        guard let status = try? Syscalls.status(path), status.isRegular,
            let fd = try? Syscalls.open(path, flags: O_RDONLY | O_NONBLOCK)
        else { return false }
        defer { Syscalls.close(fd) }
        var head = [UInt8](repeating: 0, count: 2)
        guard let n = try? Syscalls.read(fd, into: &head), n == 2 else { return false }
        return GzipSource<FileRangeSource>.isGzip(head)
    }
}
