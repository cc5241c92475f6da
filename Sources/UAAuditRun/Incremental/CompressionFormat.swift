/// The compressors logrotate users set (`compresscmd`, `compressext`), known by the first
/// bytes they write and by the suffixes they name files with. `run` reads gzip only: a rotated
/// file in another format is named where its lines may be missing, never read as text.
enum CompressionFormat: String, Sendable, Equatable {
    case gzip
    case bzip2
    case xz
    case zstd
    case lz4
    case lzip
    case compress = "compress (LZW)"

    /// The format whose magic number `bytes` start with; nil for none (plain text).
    init?(magic bytes: [UInt8]) {
        func starts(_ magic: [UInt8]) -> Bool { bytes.starts(with: magic) }
        if starts([0x1F, 0x8B]) {
            self = .gzip
        } else if starts([0x42, 0x5A, 0x68]) {
            self = .bzip2
        } else if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            self = .xz
        } else if starts([0x28, 0xB5, 0x2F, 0xFD]) {
            self = .zstd
        } else if starts([0x04, 0x22, 0x4D, 0x18]) {
            self = .lz4
        } else if starts([0x4C, 0x5A, 0x49, 0x50]) {
            self = .lzip
        } else if starts([0x1F, 0x9D]) {
            self = .compress
        } else {
            return nil
        }
    }

    /// The first bytes that tell the formats apart.
    static let magicBytes = 6

    /// The suffixes compressors (and `compressext`) give, with the format each names: gzip's
    /// own and the names users give it (`.gzip`, `.z`), and the others'.
    static let suffixes: [(String, CompressionFormat)] = [
        (".gz", .gzip), (".gzip", .gzip), (".z", .gzip), (".Z", .compress), (".bz2", .bzip2), (".bzip2", .bzip2),
        (".xz", .xz), (".lzma", .xz), (".zst", .zstd), (".zstd", .zstd), (".lz4", .lz4), (".lz", .lzip),
    ]

    /// The compression suffix `name` ends with, and the format it names; nil for none.
    static func suffix(of name: Substring) -> (length: Int, format: CompressionFormat)? {
        for (suffix, format) in suffixes where name.utf8.count > suffix.utf8.count && name.hasSuffix(suffix) {
            return (suffix.utf8.count, format)
        }
        return nil
    }

    /// Whether `name` ends with a suffix given to gzip files: such a file is opened as gzip
    /// (one still being written has no readable header yet and waits); any other is opened by
    /// its first bytes.
    static func isGzipName(_ name: String) -> Bool { suffix(of: Substring(name))?.format == .gzip }
}
