@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Gzip target: any bytes either decompress or fail with an error; never a crash, and the
/// output read is capped so a decompression bomb cannot exhaust memory.
enum Gunzipping {
    struct Memory: ByteSource {
        let bytes: [UInt8]
        var position = 0
        var consumed: Int64 { Int64(position) }
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
            let n = min(buffer.count, bytes.count - position)
            if n > 0 {
                bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
            }
            position += n
            return n
        }
    }

    struct Counter: LineSink {
        var lines = 0
        var bytes = 0
        mutating func line(_ line: UnsafeRawBufferPointer) {
            lines += 1
            bytes += line.count + 1
        }
        mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int) {
            lines += 1
            FuzzTargets.check(prefix.count <= LineReader.overlongPrefixBytes, "an overlong sample is too long")
        }
    }

    /// Stops a source after `limit` bytes.
    struct Capped<Base: ByteSource>: ByteSource {
        var base: Base
        var left: Int
        var consumed: Int64 { base.consumed }
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
            guard left > 0 else { return 0 }
            let n = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, left)]))
            left -= n
            return n
        }
    }

    nonisolated(unsafe) static let reader = LineReader(blockSize: 4096, maxLineBytes: 4096)

    static func run(_ bytes: [UInt8]) {
        var plain = Memory(bytes: bytes)
        var plainCount = Counter()
        try? reader.read(&plain, into: &plainCount)
        FuzzTargets.check(plainCount.bytes <= bytes.count + 1, "more line bytes than input")
        guard let gzip = try? GzipSource(base: Memory(bytes: bytes), path: "fuzz") else { return }
        var capped = Capped(base: gzip, left: 16 << 20)
        var count = Counter()
        try? reader.read(&capped, into: &count)
    }
}
