/// Which file a path names, so that two spellings of one file (`./a.log`, a symlink, a hard
/// link) compare equal: the device and inode when the file exists, else the resolved path
/// (the real path of its directory plus its name).
package enum PathIdentity: Hashable, Sendable {
    case file(device: UInt64, inode: UInt64)
    case path(String)

    package static func of(_ path: String) -> PathIdentity {
        if let status = try? Syscalls.status(path) { return .file(device: status.device, inode: status.inode) }
        return .path(lexicallyResolved(path))
    }

    /// The file standard input reads (`-`): a regular file redirected with `<`, a FIFO, a pipe
    /// or a terminal, so that `scan log - < log`, `--out log - < log`, `scan - ff < ff` or
    /// `cat log | scan - /dev/stdin` are caught like two names of one file (a pipe read by two
    /// workers at once would be split between them). Nil for a closed descriptor.
    package static func ofStandardInput() -> PathIdentity? {
        guard let status = try? Syscalls.fstatus(0) else { return nil }
        return .file(device: status.device, inode: status.inode)
    }

    /// The path's real path (symlinks resolved) where it exists, else the real path of its
    /// directory plus its name, else the path as given.
    package static func resolved(_ path: String) -> String {
        Syscalls.realPath(path) ?? lexicallyResolved(path)
    }

    private static func lexicallyResolved(_ path: String) -> String {
        var directory = "."
        var name = path
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
            name = String(path[path.index(after: slash)...])
        }
        guard let resolved = Syscalls.realPath(directory) else { return path }
        return resolved == "/" ? "/" + name : resolved + "/" + name
    }
}
