import COpenSSL

/// SHA-256 and HMAC-SHA256 from OpenSSL's libcrypto (the one file that imports `COpenSSL`).
///
/// Both calls fail only when libcrypto cannot allocate or has no SHA-256 at all (a broken
/// installation), never because of their input, so a failure stops the program.
enum SHA256 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = message.withUnsafeBytes { data in
            EVP_Digest(data.baseAddress, data.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "libcrypto EVP_Digest(SHA-256) failed")
        return Array(digest.prefix(32))
    }

    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { data in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, &digest, &length)
            }
        }
        precondition(result != nil && length == 32, "libcrypto HMAC(SHA-256) failed")
        return Array(digest.prefix(32))
    }

    /// SHA-256 of bytes that arrive piece by piece (stdin, read once): ``update(_:count:)``
    /// each piece, then ``finish()``.
    final class Stream: @unchecked Sendable {
        private let context: OpaquePointer?
        private var done = false

        init() {
            context = EVP_MD_CTX_new()
            precondition(
                context != nil && EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "libcrypto SHA-256 init failed")
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ bytes: UnsafeRawPointer, count: Int) {
            guard !done, count > 0 else { return }
            precondition(EVP_DigestUpdate(context, bytes, count) == 1, "libcrypto EVP_DigestUpdate failed")
        }

        /// The digest of everything given; later updates are ignored.
        func finish() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            precondition(
                EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32,
                "libcrypto EVP_DigestFinal_ex failed")
            done = true
            return Array(digest.prefix(32))
        }
    }

    /// Lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
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
