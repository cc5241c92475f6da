import Glibc

/// Writes a file so that readers see the old content or the new, never a part:
/// a temp file in the same directory, fsync, rename over the target, fsync of the directory.
package enum AtomicFile {
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(SystemError) {
        let temp = try TempFile(target: path, mode: mode)
        do {
            try temp.append(bytes)
        } catch {
            temp.discard()
            throw error
        }
        try temp.commit()
    }

    /// Writes what `body` hands to its `append` function, in order, then commits the file. An
    /// error thrown by `body` (or by `append`: a ``SystemError``) leaves the old file as it
    /// was and no temp file behind, and is rethrown as it is.
    package static func write(
        to path: String, mode: mode_t = 0o644, _ body: (_ append: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        let temp = try TempFile(target: path, mode: mode)
        do {
            try body { bytes throws(SystemError) in try temp.append(bytes) }
        } catch {
            temp.discard()
            throw error
        }
        try temp.commit()
    }

    /// Room for one later write of `path`, taken now: a temp file beside it with `bytes` bytes
    /// allocated (posix_fallocate). ``write(_:)`` then writes into that room and commits it
    /// without needing a free block, so a disk filled meanwhile cannot fail it with ENOSPC
    /// (a run that delivered alerts must be able to record that it did). Not used: removed
    /// when the value goes away (or, after a crash, by the next writer of `path`).
    package final class Reservation {
        private var temp: TempFile?
        let bytes: Int

        package init(for path: String, bytes: Int, mode: mode_t = 0o644) throws(SystemError) {
            let temp = try TempFile(target: path, mode: mode, kind: "res")
            do {
                try Syscalls.allocate(temp.fd, Int64(bytes))
            } catch {
                temp.discard()
                throw error
            }
            self.temp = temp
            self.bytes = bytes
        }

        /// Writes `content` into the room taken, cut to its length, and commits it over the
        /// target. Content longer than the room is written too (then it may need blocks).
        package func write(_ content: [UInt8]) throws(SystemError) {
            guard let temp else { throw SystemError(errno: EBADF, call: "write of a used reservation") }
            self.temp = nil
            do {
                try temp.append(content)
                try Syscalls.ftruncate(temp.fd, Int64(content.count))
            } catch {
                temp.discard()
                throw error
            }
            try temp.commit()
        }

        deinit { temp?.discard() }
    }

    /// The temp file beside the target, written, then renamed over it.
    private struct TempFile {
        let target: String
        let directory: String
        let path: String
        let fd: Int32

        /// `kind` names the temp file (`tmp`, or `res` for a ``Reservation``), so that a
        /// reservation and a write of the same target by one process do not share a name.
        init(target given: String, mode: mode_t, kind: String = "tmp") throws(SystemError) {
            // The rename replaces the file a symbolic link leads to, never the link; what is
            // no regular file (stdout, a device, a directory) is refused, never replaced.
            let target: String
            switch Result(catching: { () throws(OutputPath.Problem) in try OutputPath.resolve(given) }) {
            case .success(.file(let path)): target = path
            case .success(.standardOutput): throw SystemError(errno: EINVAL, call: "rename")
            case .failure(.notARegularFile(let kind, _)):
                throw SystemError(errno: kind == .directory ? EISDIR : EINVAL, call: "rename")
            case .failure(.tooManyLinks): throw SystemError(errno: ELOOP, call: "rename")
            case .failure(.plantedLink(let link, _, _)):
                // The CLI names it first (exit 2); this is the last guard before a write.
                throw SystemError(
                    errno: EPERM, call: "follow the symbolic link \(link), another user's in a sticky directory")
            }
            self.target = target
            directory = AtomicFile.parentDirectory(of: target)
            let prefix = ".\(AtomicFile.baseName(of: target)).\(kind)."
            path = "\(directory)/\(prefix)\(Syscalls.getpid())"
            Syscalls.unlink(path)
            AtomicFile.removeAbandonedTemps(in: directory, prefix: prefix)
            if kind != "res" {
                AtomicFile.removeAbandonedTemps(in: directory, prefix: ".\(AtomicFile.baseName(of: target)).res.")
            }
            fd = try Syscalls.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
            // `mode` whatever the umask (a cron job's 077 must not hide the metrics from
            // node_exporter), but a file that exists keeps the bits it lacks: an operator's
            // chmod 600 on a report that names clients stays.
            let existing = (try? Syscalls.status(target)).flatMap { $0?.isRegular == true ? $0 : nil }
            do {
                try Syscalls.fchmod(fd, existing.map { mode & $0.permissions } ?? mode)
            } catch {
                discard()
                throw error
            }
        }

        func append(_ bytes: [UInt8]) throws(SystemError) {
            let written: Result<Void, SystemError> = bytes.withUnsafeBytes { buffer in
                guard buffer.count > 0 else { return .success(()) }
                do throws(SystemError) {
                    return .success(try Syscalls.writeAll(fd, buffer.baseAddress!, buffer.count))
                } catch {
                    return .failure(error)
                }
            }
            try written.get()
        }

        func discard() {
            Syscalls.close(fd)
            Syscalls.unlink(path)
        }

        /// fsync, rename over the target, fsync of the directory.
        func commit() throws(SystemError) {
            do {
                try Syscalls.fsync(fd)
            } catch {
                discard()
                throw error
            }
            Syscalls.close(fd)
            do {
                try Syscalls.rename(path, target)
            } catch {
                Syscalls.unlink(path)
                throw error
            }
            // The rename is durable only once the directory is: an error there (EIO) is the
            // write's error, not a silent success.
            let dfd = try Syscalls.open(directory, flags: O_RDONLY | O_DIRECTORY)
            defer { Syscalls.close(dfd) }
            do {
                try Syscalls.fsync(dfd)
            } catch {
                throw SystemError(errno: error.errno, call: "fsync of the directory \(directory)")
            }
        }
    }

    /// Removes temp files of this target left by writers that died before their rename
    /// (SIGKILL, power loss): those whose process no longer exists.
    static func removeAbandonedTemps(in directory: String, prefix: String) {
        guard let names = try? Syscalls.listDirectory(directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != Syscalls.getpid() else { continue }
            if !Syscalls.processExists(pid) { Syscalls.unlink("\(directory)/\(name)") }
        }
    }

    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    package static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
