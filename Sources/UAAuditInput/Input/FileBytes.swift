import Glibc

/// Whole-file reads for small files (configs, rules), bounded so a wrong path cannot eat memory.
///
/// Only a regular file is read (CONTRACTS: configuration inputs are regular files): a FIFO, a
/// device or a directory is refused without waiting for a writer, and the file is read without
/// blocking, so that a /proc file that would wait (`/proc/kmsg`) ends in an error, not a hang.
package enum FileBytes {
    package static func readAll(path: String, limit: Int) throws(InputError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try Syscalls.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw InputError(path: path, reason: error.description)
        }
        defer { Syscalls.close(fd) }
        let regular: Bool
        do {
            regular = try Syscalls.fstat(fd).isRegular
        } catch {
            throw InputError(path: path, reason: error.description)
        }
        guard regular else {
            let kind = Syscalls.fileKind(path, followingLinks: true) ?? .other
            throw InputError(
                path: path,
                reason: "is \(kind == .other ? "not a regular file" : kind.rawValue + ", not a regular file"); "
                    + "uaaudit reads its configuration, rules, secrets and reports only from regular files")
        }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n: Int
            do {
                n = try Syscalls.read(fd, into: &chunk)
            } catch {
                throw InputError(path: path, reason: error.description, offset: Int64(result.count))
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit {
                throw InputError(path: path, reason: "larger than \(limit) bytes; is this the right file?")
            }
        }
        return result
    }
}
