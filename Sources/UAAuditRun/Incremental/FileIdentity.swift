import Glibc
import UAAuditAudit
import UAAuditInput

/// Who a log file is: its device and inode, and a fingerprint of its first bytes, so that a
/// reused inode is not mistaken for the old file and a copied or compressed file is recognised.
package struct FileIdentity: Codable, Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    /// Hex hash of the first `fingerprintBytes` bytes of the (decompressed) content.
    var fingerprint: String
    var fingerprintBytes: Int

    static let maxFingerprintBytes = 4096
    /// Fewer first bytes than this prove nothing (an empty file starts like every file; a
    /// line or two may repeat): such an identity never matches another file by content.
    static let minimumEvidenceBytes = 256

    /// Whether the fingerprint covers enough bytes to tell files apart.
    var isStrong: Bool { fingerprintBytes >= FileIdentity.minimumEvidenceBytes }

    enum CodingKeys: String, CodingKey {
        case device, inode, fingerprint
        case fingerprintBytes = "fingerprint_bytes"
    }

    init(device: UInt64, inode: UInt64, fingerprint: String, fingerprintBytes: Int) {
        self.device = device
        self.inode = inode
        self.fingerprint = fingerprint
        self.fingerprintBytes = fingerprintBytes
    }

    /// The fingerprint of `bytes` (the first bytes of a file's content).
    static func fingerprint(of bytes: [UInt8]) -> String {
        let h = bytes.withUnsafeBytes { ByteHash.hash($0, seed: 0x75_61_61_75_64_69_74) }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

/// Reads the first bytes of a file's content, decompressing gzip, for fingerprints.
enum ContentPrefix {
    /// Up to `count` bytes from the start of the content of `path` (gzip decompressed).
    static func read(path: String, count: Int) throws(InputError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try Syscalls.open(path, flags: O_RDONLY)
        } catch {
            throw InputError(path: path, reason: error.description)
        }
        defer { Syscalls.close(fd) }
        var raw = FileRangeSource(fd: fd, path: path)
        var magic = [UInt8](repeating: 0, count: 2)
        let n = try fill(&raw, &magic)
        magic.removeLast(2 - n)
        var out = [UInt8](repeating: 0, count: count)
        if GzipSource<FileRangeSource>.isGzip(magic) {
            var gzip = try GzipSource(base: PrefixedSource(prefix: magic, base: raw), path: path)
            let got = try fill(&gzip, &out)
            return Array(out.prefix(got))
        }
        var plain = PrefixedSource(prefix: magic, base: raw)
        let got = try fill(&plain, &out)
        return Array(out.prefix(got))
    }

    /// Reads until `buffer` is full or the source ends; returns the bytes read.
    static func fill<Source: ByteSource>(_ source: inout Source, _ buffer: inout [UInt8]) throws(InputError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let result: Result<Int, InputError> = buffer.withUnsafeMutableBytes { raw in
                do throws(InputError) {
                    return .success(try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])))
                } catch {
                    return .failure(error)
                }
            }
            let n = try result.get()
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// True when the content of `path` starts with the bytes `identity` fingerprinted, and
    /// they are enough to tell (``FileIdentity/isStrong``).
    static func matches(path: String, identity: FileIdentity) -> Bool {
        guard identity.isStrong, let prefix = try? read(path: path, count: identity.fingerprintBytes),
            prefix.count == identity.fingerprintBytes
        else { return false }
        return FileIdentity.fingerprint(of: prefix) == identity.fingerprint
    }
}
