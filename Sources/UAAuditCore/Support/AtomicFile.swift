import Glibc

/// Writes a file so that readers see the old content or the new, never a part:
/// a temp file in the same directory, fsync, rename over the target, fsync of the directory.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(SystemError) {
        let directory = parentDirectory(of: path)
        let prefix = ".\(baseName(of: path)).tmp."
        let temp = "\(directory)/\(prefix)\(Syscalls.getpid())"
        Syscalls.unlink(temp)
        removeAbandonedTemps(in: directory, prefix: prefix)
        let fd = try Syscalls.open(temp, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        do {
            try Syscalls.fchmod(fd, mode)
            let written: Result<Void, SystemError> = bytes.withUnsafeBytes { buffer in
                guard buffer.count > 0 else { return .success(()) }
                do throws(SystemError) {
                    return .success(try Syscalls.writeAll(fd, buffer.baseAddress!, buffer.count))
                } catch {
                    return .failure(error)
                }
            }
            try written.get()
            try Syscalls.fsync(fd)
        } catch {
            Syscalls.close(fd)
            Syscalls.unlink(temp)
            throw error
        }
        Syscalls.close(fd)
        do {
            try Syscalls.rename(temp, path)
        } catch {
            Syscalls.unlink(temp)
            throw error
        }
        if let dfd = try? Syscalls.open(directory, flags: O_RDONLY | O_DIRECTORY) {
            try? Syscalls.fsync(dfd)
            Syscalls.close(dfd)
        }
    }

    /// Removes temp files of this target left by writers that died before their rename
    /// (SIGKILL, power loss): those whose process no longer exists.
    static func removeAbandonedTemps(in directory: String, prefix: String) {
        guard let names = try? Syscalls.listDirectory(directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != Syscalls.getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { Syscalls.unlink("\(directory)/\(name)") }
        }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
