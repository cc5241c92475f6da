import CSHA256

/// SHA-256 and HMAC-SHA256 (RFC 2104), on the C implementation in `Sources/CSHA256` (the one
/// file that imports it): portable C, or the x86 SHA extensions where the CPU has them.
///
/// Nothing here can fail: no allocation in C, and every input is a valid message.
package enum SHA256 {
    package static func hash(_ message: [UInt8]) -> [UInt8] {
        let stream = Stream()
        message.withUnsafeBytes { data in
            if let base = data.baseAddress { stream.update(base, count: data.count) }
        }
        return stream.finish()
    }

    /// HMAC-SHA256 (RFC 2104): a key longer than the 64-byte block is hashed first.
    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        return hash(block.map { $0 ^ 0x5c } + hash(block.map { $0 ^ 0x36 } + message))
    }

    /// SHA-256 of bytes that arrive piece by piece (stdin, read once): ``update(_:count:)``
    /// each piece, then ``finish()``.
    package final class Stream: @unchecked Sendable {
        private var context = ua_sha256_ctx()
        private var done = false

        package init() { ua_sha256_init(&context) }

        /// A hash on the portable path (`shaExtensions` false) or on the SHA-NI one; nil when
        /// the CPU lacks the SHA extensions. For the tests, which compare the two.
        init?(shaExtensions: Bool) {
            let path = shaExtensions ? Int32(UA_SHA256_SHANI) : Int32(UA_SHA256_PORTABLE)
            guard ua_sha256_init_path(&context, path) == 1 else { return nil }
        }

        func update(_ bytes: UnsafeRawPointer, count: Int) {
            guard !done, count > 0 else { return }
            ua_sha256_update(&context, bytes, count)
        }

        /// The digest of everything given; later updates are ignored.
        package func finish() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            ua_sha256_final(&context, &digest)
            done = true
            return digest
        }
    }

    /// Lower-case hexadecimal.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return out
    }
}
