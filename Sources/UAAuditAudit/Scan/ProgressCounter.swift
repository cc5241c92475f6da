import Glibc
import Synchronization
import UAAuditInput

/// Bytes and lines done so far, updated by the scanning threads and read by a progress display.
///
/// Bytes are those read from the inputs (compressed ones for gzip, see ``ProgressSource``), so
/// they compare with the inputs' sizes.
package final class ProgressCounter: Sendable {
    private let bytesDone = Atomic<Int>(0)
    private let linesDone = Atomic<Int>(0)
    private let bytesTotal = Atomic<Int>(0)
    private let totalUnknown = Atomic<Bool>(false)

    package init() {}

    func add(bytes: Int, lines: Int) {
        bytesDone.add(bytes, ordering: .relaxed)
        linesDone.add(lines, ordering: .relaxed)
    }

    /// Adds to the expected total (the size of an input whose size is known).
    func expect(bytes: Int) {
        bytesTotal.add(bytes, ordering: .relaxed)
    }

    /// Sets the expected total from the inputs a scan will read, before it starts: the sizes of
    /// regular files; stdin (`-`), pipes and what cannot be looked at leave the total unknown.
    package func expect(inputs paths: [String]) {
        for path in paths {
            if path != "-", let size = Syscalls.regularFileSize(path) {
                expect(bytes: Int(size))
            } else {
                totalUnknown.store(true, ordering: .relaxed)
            }
        }
    }

    /// Bytes read so far, lines so far, and the total bytes to read: 0 when unknown.
    package var snapshot: (bytes: Int, lines: Int, total: Int) {
        let total = totalUnknown.load(ordering: .relaxed) ? 0 : bytesTotal.load(ordering: .relaxed)
        return (bytesDone.load(ordering: .relaxed), linesDone.load(ordering: .relaxed), total)
    }
}
