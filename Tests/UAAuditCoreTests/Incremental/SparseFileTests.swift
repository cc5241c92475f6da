import Glibc
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A rotated candidate that is mostly holes is told apart by its holes, not its size.
@Suite struct SparseFileTests {
    func isSparse(size: Int64, data: [(Int64, Int)]) throws -> Bool {
        let dir = try TempDirectory()
        let path = try dir.write("f", [])
        let fd = open(path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(ftruncate(fd, off_t(size)) == 0)
        for (offset, count) in data {
            let bytes = [UInt8](repeating: 0x61, count: count)
            #expect(pwrite(fd, bytes, count, off_t(offset)) == count)
        }
        return SparseFile.isMostlyHoles(fd: fd, size: size)
    }

    @Test func holesDecide() throws {
        let mib: Int64 = 1 << 20
        // All holes, and a few bytes in 256 MiB of holes.
        #expect(try isSparse(size: 256 * mib, data: []))
        #expect(try isSparse(size: 256 * mib, data: [(0, 4096), (200 * mib, 4096)]))
        // Under the size looked at: never, whatever it holds.
        #expect(try !isSparse(size: 32 * mib, data: []))
        // Written whole (as a log is): no hole.
        #expect(try !isSparse(size: 64 * mib, data: [(0, Int(64 * mib))]))
    }
}
