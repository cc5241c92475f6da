import Synchronization

/// Bytes and lines done so far, updated by the scanning threads and read by a progress display.
public final class ProgressCounter: Sendable {
    private let bytesDone = Atomic<Int>(0)
    private let linesDone = Atomic<Int>(0)
    private let bytesTotal = Atomic<Int>(0)

    public init() {}

    public func add(bytes: Int, lines: Int) {
        bytesDone.add(bytes, ordering: .relaxed)
        linesDone.add(lines, ordering: .relaxed)
    }

    /// Adds to the expected total (the size of each input whose size is known).
    public func expect(bytes: Int) {
        bytesTotal.add(bytes, ordering: .relaxed)
    }

    public var snapshot: (bytes: Int, lines: Int, total: Int) {
        (bytesDone.load(ordering: .relaxed), linesDone.load(ordering: .relaxed), bytesTotal.load(ordering: .relaxed))
    }
}
