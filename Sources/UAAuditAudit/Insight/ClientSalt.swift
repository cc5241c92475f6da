import UAAuditInput

/// The salt that client keys are hashed with, so that the client hashes a report carries
/// (``ClientSampleEntry``) are the same on every host of a fleet that shares the salt, and
/// cannot be turned back into addresses by someone without it.
///
/// The default salt is empty and documented: it keys clients exactly as uaaudit always has
/// (the same state files, examples and figures), and anyone can reverse its hashes of IPv4
/// addresses by trying them all. A fleet that merges reports gives every host the same salt
/// file (`--client-salt-file`, `client_salt_file`); reports name it by ``fingerprint``, never
/// by its bytes, and `merge` refuses reports of different salts.
///
/// From the salt come three things, each under its own label so that none gives another away:
/// - ``seed``: the seed of the per-line client hash (0 for the default salt); which clients a
///   hash-threshold sample keeps depends on this hash, the same on every host;
/// - ``key``: the key of ``reportID(_:)``, the one-way client id written in reports;
/// - ``fingerprint``: what reports show.
package struct ClientSalt: Equatable, Sendable {
    /// The salt's bytes (empty: the default salt). Never printed.
    private let bytes: [UInt8]
    let seed: UInt64
    private let key: [UInt8]
    /// `sha256:` and 16 hex digits of a hash of the salt under its own label.
    package let fingerprint: String

    /// The most bytes a salt file may hold (a bigger file is the wrong file).
    static let fileLimit = 4 << 10
    /// The fewest bytes a salt of one's own must have: shorter ones can be guessed.
    static let minimumBytes = 16

    /// The default salt: empty.
    package static let standard = ClientSalt(bytes: [])

    init(bytes: [UInt8]) {
        self.bytes = bytes
        key = SHA256.hash(Array("uaaudit client salt key\0".utf8) + bytes)
        if bytes.isEmpty {
            seed = 0
        } else {
            let h = SHA256.hash(Array("uaaudit client salt seed\0".utf8) + bytes)
            var s: UInt64 = 0
            for i in 0..<8 { s |= UInt64(h[i]) << UInt64(8 * i) }
            seed = s | 1
        }
        fingerprint =
            "sha256:" + String(SHA256.hex(SHA256.hash(Array("uaaudit client salt\0".utf8) + bytes)).prefix(16))
    }

    /// The salt in a file: its bytes without one final line break (`\n` or `\r\n`). An empty file, one over
    /// ``fileLimit`` or one under ``minimumBytes`` is refused with what to do.
    package init(file path: String) throws(InputError) {
        var bytes = try FileBytes.readAll(path: path, limit: ClientSalt.fileLimit)
        if bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        guard bytes.count >= ClientSalt.minimumBytes else {
            throw InputError(
                path: path,
                reason: "holds \(bytes.count) bytes: a client salt needs at least \(ClientSalt.minimumBytes) "
                    + "(make one with: head -c 32 /dev/urandom | base64 > \(ShellWord.quoted(path)))")
        }
        self.init(bytes: bytes)
    }

    package var isStandard: Bool { bytes.isEmpty }

    /// The id a report gives the client whose per-line hash is `hash` (its kept bits,
    /// ``ClientSample/hashMask``): SipHash-2-4 of the hash under 128 bits of the key, a keyed
    /// pseudo-random function, so that the report's ids cannot be matched to addresses without
    /// the salt, and the same client has the same id on every host with this salt. (SHA-256
    /// per id cost a week-long report's serial tail 15%: up to 262,144 ids.)
    package func reportID(_ hash: UInt64) -> UInt64 {
        SipHash.hash(hash & ClientSample.hashMask, k0: k0, k1: k1)
    }

    private var k0: UInt64 { word(0) }
    private var k1: UInt64 { word(8) }
    private func word(_ at: Int) -> UInt64 {
        var w: UInt64 = 0
        for i in 0..<8 { w |= UInt64(key[at + i]) << UInt64(8 * i) }
        return w
    }

    /// A client key as reports show it without `--show-client-keys`: `#` and 12 hex digits of
    /// SHA-256 of the key (after the salt's key, for a salt of one's own).
    package func display(_ clientKey: String) -> String {
        let message = (isStandard ? [] : key) + Array(clientKey.utf8)
        return "#" + String(SHA256.hex(SHA256.hash(message)).prefix(12))
    }

    /// True for a key in the form ``display(_:)`` gives: `#` and 12 lowercase hex digits.
    package static func looksHashed(_ text: String) -> Bool {
        let u = Array(text.utf8)
        return u.count == 13 && u[0] == UInt8(ascii: "#")
            && u.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    package static func == (a: ClientSalt, b: ClientSalt) -> Bool { a.bytes == b.bytes }
}

/// SipHash-2-4 (Aumasson and Bernstein) of one 64-bit word: a keyed pseudo-random function.
enum SipHash {
    static func hash(_ m: UInt64, k0: UInt64, k1: UInt64) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1
        func round() {
            v0 = v0 &+ v1
            v1 = (v1 << 13) | (v1 >> 51)
            v1 ^= v0
            v0 = (v0 << 32) | (v0 >> 32)
            v2 = v2 &+ v3
            v3 = (v3 << 16) | (v3 >> 48)
            v3 ^= v2
            v0 = v0 &+ v3
            v3 = (v3 << 21) | (v3 >> 43)
            v3 ^= v0
            v2 = v2 &+ v1
            v1 = (v1 << 17) | (v1 >> 47)
            v1 ^= v2
            v2 = (v2 << 32) | (v2 >> 32)
        }
        // One 8-byte block, then the final block: the length (8) in the top byte.
        v3 ^= m
        round()
        round()
        v0 ^= m
        let last: UInt64 = 8 << 56
        v3 ^= last
        round()
        round()
        v0 ^= last
        v2 ^= 0xff
        round()
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}
