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
    package let seed: UInt64
    private let key: [UInt8]
    /// `sha256:` and 16 hex digits of a hash of the salt under its own label.
    package let fingerprint: String

    /// The most bytes a salt file may hold (a bigger file is the wrong file).
    package static let fileLimit = 4 << 10
    /// The fewest bytes a salt of one's own must have: shorter ones can be guessed.
    package static let minimumBytes = 16

    /// The default salt: empty.
    package static let standard = ClientSalt(bytes: [])

    package init(bytes: [UInt8]) {
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
        fingerprint = "sha256:" + String(SHA256.hex(SHA256.hash(Array("uaaudit client salt\0".utf8) + bytes)).prefix(16))
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
    /// ``ClientSample/hashMask``): 64 bits of SHA-256 of the key and the hash, so that the
    /// report's ids cannot be matched to addresses without the salt, and the same client has
    /// the same id on every host with this salt.
    package func reportID(_ hash: UInt64) -> UInt64 {
        var message = key
        withUnsafeBytes(of: (hash & ClientSample.hashMask).littleEndian) { message.append(contentsOf: $0) }
        let h = SHA256.hash(message)
        var id: UInt64 = 0
        for i in 0..<8 { id |= UInt64(h[i]) << UInt64(8 * i) }
        return id
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
