import UAAuditInput

/// A rotated-log candidate `run` does not read (CONTRACTS: files, as root), named once in a
/// gap: a symbolic link under a rotated name, or a file of neither the live log's owner nor
/// root; or a file of another compressor than gzip, named where its lines may be missing. Another user who may write the log's directory could otherwise feed in lines as the
/// log's, or have a run as root copy a file only root may read into the report.
struct SkippedCandidate: Sendable {
    enum Cause: Sendable, Equatable {
        /// A symbolic link: never followed, whatever it names.
        case symbolicLink
        /// Another file that is not a regular one (a FIFO, a socket, a device, a directory):
        /// never opened (a FIFO would block, or feed whatever its writer sends).
        case notRegular(FileKind)
        /// A regular file owned by this uid.
        case owner(UInt32)
        /// A file the live log's link named between two runs that could not be opened: why.
        case unreadable(String)
        /// A file named like the live log's link targets that is between the last one read and
        /// the current one in one date reading only (day and month cannot be told apart).
        case ambiguousDate
        /// A file of another compressor than gzip (found by its first bytes), which `run` cannot
        /// read: named where the lines it may hold are missing.
        case compression(CompressionFormat)
        /// A file that is mostly holes (``SparseFile``): no log written by appending.
        case sparse
    }

    var path: String
    /// The link's own status (lstat), or the opened file's (fstat).
    var status: FileStatus
    var compressed: Bool
    var cause: Cause
    /// The file as opened, for another owner's; nil for a link, which is never opened, and
    /// for a file that could not be.
    var file: LogFile?

    /// A symbolic link, from its lstat(2) status.
    static func link(path: String, status: FileStatus) -> SkippedCandidate {
        SkippedCandidate(
            path: path, status: status, compressed: CompressionFormat.isGzipName(path), cause: .symbolicLink,
            file: nil)
    }

    /// A name that is no regular file, from its lstat(2) status: a link, or another kind.
    static func unopened(path: String, status: FileStatus) -> SkippedCandidate {
        guard !status.isSymbolicLink else { return link(path: path, status: status) }
        let kind = Syscalls.fileKind(path, followingLinks: false).flatMap { $0 == .regular ? nil : $0 } ?? .other
        return SkippedCandidate(
            path: path, status: status, compressed: CompressionFormat.isGzipName(path), cause: .notRegular(kind),
            file: nil)
    }

    /// A file named like the link's targets that could not be opened, from its lstat(2) status.
    static func unreadable(path: String, status: FileStatus, reason: String) -> SkippedCandidate {
        SkippedCandidate(
            path: path, status: status, compressed: CompressionFormat.isGzipName(path),
            cause: .unreadable(reason), file: nil)
    }

    /// An opened file of another owner.
    static func otherOwner(_ file: LogFile) -> SkippedCandidate {
        SkippedCandidate(
            path: file.path, status: file.status, compressed: file.compressed, cause: .owner(file.status.owner),
            file: file)
    }

    /// A file the live log's link may have named between two runs, from its lstat(2) status.
    static func ambiguousDate(path: String, status: FileStatus) -> SkippedCandidate {
        SkippedCandidate(
            path: path, status: status, compressed: CompressionFormat.isGzipName(path), cause: .ambiguousDate,
            file: nil)
    }

    /// An opened file of another compressor than gzip.
    static func compressed(_ file: LogFile, _ format: CompressionFormat) -> SkippedCandidate {
        SkippedCandidate(
            path: file.path, status: file.status, compressed: true, cause: .compression(format), file: file)
    }

    /// What the state keeps of it, so that it is named once: a link by its own inode, size
    /// and time, with no content (a fingerprint of no bytes, which proves nothing).
    var known: RunState.KnownFile {
        let identity =
            file?.identity
            ?? FileIdentity(
                device: status.device, inode: status.inode, fingerprint: FileIdentity.fingerprint(of: []),
                fingerprintBytes: 0)
        return RunState.KnownFile(identity: identity, size: status.size, modified: status.modified)
    }
}
