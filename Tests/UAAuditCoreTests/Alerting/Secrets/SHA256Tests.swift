import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The C SHA-256 (portable and SHA-NI paths) and the HMAC on it, against the published
/// vectors and against each other.
@Suite struct SHA256Tests {
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { $0 <= 0x39 ? $0 - 0x30 : ($0 | 0x20) - 0x57 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// FIPS 180-4's examples (NIST's SHA-256 example values) and the million 'a's.
    static let vectors: [(message: [UInt8], digest: String)] = [
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (
            [UInt8](repeating: 0x61, count: 1_000_000),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        ),
    ]

    @Test func publishedVectorsOnEveryPath() throws {
        for (message, digest) in Self.vectors {
            #expect(SHA256.hex(SHA256.hash(message)) == digest)
            for shaExtensions in [false, true] {
                guard let stream = SHA256.Stream(shaExtensions: shaExtensions) else { continue }
                message.withUnsafeBytes { stream.update($0.baseAddress!, count: $0.count) }
                #expect(SHA256.hex(stream.finish()) == digest, "shaExtensions \(shaExtensions)")
            }
        }
    }

    /// RFC 4231's test cases 1-4, 6 and 7 (5 truncates the output, which uaaudit never does).
    static let hmacVectors: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            bytes(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131),
            Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test func rfc4231HMACVectors() {
        for (key, data, mac) in Self.hmacVectors {
            #expect(SHA256.hex(SHA256.hmac(key: key, message: data)) == mac)
        }
    }

    /// A key of exactly one block is used as it is; one byte more is hashed first.
    @Test func hmacKeysAroundTheBlockSize() {
        let key = (0..<65).map { UInt8($0) }
        let message = Array("message".utf8)
        #expect(
            SHA256.hmac(key: Array(key.prefix(64)), message: message)
                != SHA256.hmac(key: Array(key.prefix(63)), message: message))
        #expect(SHA256.hmac(key: key, message: message) == SHA256.hmac(key: SHA256.hash(key), message: message))
    }

    static func random(_ count: Int, _ generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Every length 0...300 (each padding case, one and two final blocks), fed in random
    /// pieces, gives the one-shot digest.
    @Test func streamingInRandomPiecesEqualsOneShot() {
        var generator = SplitMix64(state: 18)
        let data = Self.random(300, &generator)
        for length in 0...300 {
            let message = Array(data.prefix(length))
            let expected = SHA256.hash(message)
            for _ in 0..<3 {
                let stream = SHA256.Stream()
                var at = 0
                message.withUnsafeBytes { raw in
                    while at < length {
                        let piece = Int.random(in: 0...min(length - at, 130), using: &generator)
                        stream.update(raw.baseAddress! + at, count: piece)
                        at += piece
                    }
                }
                #expect(stream.finish() == expected, "length \(length)")
            }
        }
    }

    /// The SHA-NI path gives the portable path's digest for lengths that end at every place
    /// in a block and span up to 70 blocks (skipped on a CPU without the SHA extensions).
    @Test func shaExtensionsAgreeWithPortable() throws {
        try #require(SHA256.Stream(shaExtensions: false) != nil)
        guard SHA256.Stream(shaExtensions: true) != nil else { return }
        var generator = SplitMix64(state: 180)
        let data = Self.random(4500, &generator)
        var lengths = Array(0...200) + (0..<60).map { _ in Int.random(in: 0...4500, using: &generator) }
        lengths.append(4500)
        for length in lengths {
            let digests = [false, true].map { shaExtensions in
                let stream = SHA256.Stream(shaExtensions: shaExtensions)!
                data.withUnsafeBytes { stream.update($0.baseAddress!, count: length) }
                return stream.finish()
            }
            #expect(digests[0] == digests[1], "length \(length)")
        }
    }
}
