import FoundationEssentials
import Glibc
import UAAuditInput

/// The exclusive lock that keeps two runs from touching the same state at once (flock(2)).
/// It is released when the process exits, however it exits.
struct RunLock {
    /// Another run held the lock for the whole wait (the CLI words it: exit 5).
    struct Busy: Error {
        let path: String
        let waited: Double
    }

    let fd: Int32

    static func acquire(path: String, wait: Double) throws -> RunLock {
        // Links followed by OutputPath's rule (never another user's planted one), then the
        // file opened without following one: a link swapped in meanwhile is ELOOP, not followed.
        var target = path
        if case .file(let file) = try OutputPath.resolve(path) { target = file }
        let fd = try Syscalls.open(target, flags: O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
        let deadline = Date().timeIntervalSince1970 + wait
        while true {
            if try Syscalls.tryLockExclusive(fd) { return RunLock(fd: fd) }
            if Date().timeIntervalSince1970 >= deadline {
                Syscalls.close(fd)
                throw Busy(path: path, waited: wait)
            }
            usleep(50_000)
        }
    }

    func release() { Syscalls.close(fd) }
}
