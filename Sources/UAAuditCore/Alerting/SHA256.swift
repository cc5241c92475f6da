import COpenSSL

/// SHA-256 and HMAC-SHA256 from OpenSSL's libcrypto (``TLSStream`` is the other file that
/// imports `COpenSSL`, for libssl).
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
