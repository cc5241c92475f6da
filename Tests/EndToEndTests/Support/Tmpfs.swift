import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted for one test: filled up it gives real ENOSPC, remounted read-only it
/// gives real EROFS (root ignores permission bits, so a mode cannot make a directory read-only).
///
/// Mounting needs root (CI runs as root). A test that mounts one carries `.requires(.tmpfs)`:
/// where it is not permitted the runner reports the test as skipped; with
/// `UAAUDIT_REQUIRE_SERVERS=1` the test runs and `mount` fails it. Unmounted when the value
/// goes away.
final class Tmpfs {
    private let scratch: Scratch
    /// The mount point.
    let path: String
    var filler: String { path + "/.filler" }

    private init(scratch: Scratch, path: String) {
        self.scratch = scratch
        self.path = path
    }

    /// A fresh tmpfs of `kib` KiB, or nil (after the message) when this process may not mount.
    static func mount(kib: Int, test: String) throws -> Tmpfs? {
        let scratch = try Scratch()
        let point = scratch.path("mnt")
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        let result =
            Requirement.tmpfs.isHidden
            ? ExternalTool.Output(status: 1, stdout: "", stderr: "hidden by UAAUDIT_TEST_HIDE_TOOLS")
            : try ExternalTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kib)k", "tmpfs", point])
        guard result.status == 0 else {
            let message =
                "CANNOT MOUNT A TMPFS (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))): \(test) is SKIPPED. "
                + "Run the tests as root (as CI does) to check real ENOSPC and EROFS."
            FileHandle.standardError.write(Data("\n*** \(message) ***\n".utf8))
            if ExternalTool.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
            return nil
        }
        return Tmpfs(scratch: scratch, path: point)
    }

    deinit {
        if (try? ExternalTool.run("/bin/umount", [path]).status) != 0 {
            _ = try? ExternalTool.run("/bin/umount", ["-l", path])
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Takes every free block with a filler file, so that the next write gets ENOSPC.
    func fill() throws { try Self.fill(filler) }

    /// `fill` from another thread: only the filler's path is taken along.
    static func fill(_ filler: String) throws {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x2E, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) > 0 {}
        // The last partial block, byte by byte.
        while write(fd, block, 1) == 1 {}
        guard errno == ENOSPC else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// Frees the space `fill` took.
    func unfill() { unlink(filler) }

    func remount(readOnly: Bool) throws {
        let result = try ExternalTool.run("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path])
        guard result.status == 0 else { throw POSIXError(.EPERM) }
    }

    /// The names in the mount, sorted (the filler left out), to show that no temp file was left.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != ".filler" }.sorted()
    }
}

/// The two ways a disk refuses a write, each made real on a ``Tmpfs``.
enum DiskFault: String, CaseIterable, CustomTestStringConvertible {
    case full
    case readOnly
    var testDescription: String { rawValue }
    /// strerror(3) of the errno a write then gets.
    var cause: String { self == .full ? "No space left on device" : "Read-only file system" }

    func apply(to fs: Tmpfs) throws {
        if self == .full { try fs.fill() } else { try fs.remount(readOnly: true) }
    }

    func undo(on fs: Tmpfs) throws {
        if self == .full { fs.unfill() } else { try fs.remount(readOnly: false) }
    }
}

/// The bytes of a file, to show that a failed write left it exactly as it was.
func contents(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
