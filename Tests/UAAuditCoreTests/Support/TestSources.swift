@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A byte source over an in-memory buffer, handing out at most `step` bytes a read.
struct MemorySource: ByteSource {
    let bytes: [UInt8]
    let step: Int
    var position = 0
    /// The file offset its bytes pretend to start at; reads whose buffer address does not agree
    /// with the offset of their first byte modulo 64 are counted in `misaligned`.
    var fileOffset: Int64 = 0
    var misaligned = 0

    init(_ bytes: [UInt8], step: Int = 1 << 20) {
        self.bytes = bytes
        self.step = step
    }

    init(_ text: String, step: Int = 1 << 20) {
        self.init(Array(text.utf8), step: step)
    }

    var consumed: Int64 { Int64(position) }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if Int(bitPattern: buffer.baseAddress) & 63 != Int(truncatingIfNeeded: fileOffset + Int64(position)) & 63 {
            misaligned += 1
        }
        let n = min(buffer.count, step, bytes.count - position)
        if n > 0 {
            bytes.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + position, byteCount: n)
            }
        }
        position += n
        return n
    }
}

/// Collects what a LineReader hands out.
struct CollectingSink: LineSink {
    var lines: [[UInt8]] = []
    var overlong: [(prefix: [UInt8], length: Int)] = []

    mutating func line(_ bytes: UnsafeRawBufferPointer) { lines.append(Array(bytes)) }

    mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int) {
        overlong.append((Array(prefix), length))
        lines.append(Array("<overlong>".utf8))
    }
}

/// Collects lines as ``CollectingSink`` does, finding the end of those of even length itself
/// (``LineSink/line(at:available:)``), as a sink with a faster search would: the reader must hand
/// out the same lines either way. Records every `available` it was offered.
struct FindingSink: LineSink {
    var collected = CollectingSink()
    var offered: [Int] = []
    var found = 0

    mutating func line(_ bytes: UnsafeRawBufferPointer) { collected.line(bytes) }

    mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int) {
        collected.overlongLine(prefix: prefix, length: length)
    }

    mutating func line(at p: UnsafeRawPointer, available: Int) -> Int? {
        offered.append(available)
        let bytes = UnsafeRawBufferPointer(start: p, count: available)
        guard let end = bytes.firstIndex(of: 0x0A), end % 2 == 0 else { return nil }
        found += 1
        collected.line(UnsafeRawBufferPointer(rebasing: bytes[..<end]))
        return end
    }
}

/// A few well-formed `ua_log` lines for building test logs.
enum LogLines {
    static func uaLog(
        time: String = "29/Nov/2026:17:18:40 +0800", request: String = "GET /api/v2/me HTTP/1.1",
        status: String = "200",
        user: String = "-", ua: String
    ) -> String {
        "127.0.0.1 - \(user) [\(time)] \"\(request)\" \(status) 2 \"-\" \"\(ua)\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\""
    }

    static let webview =
        "MyApp/5.12.1 (iPhone; iPhone15,3; iOS 17_4) Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1"
    static let urlsession = "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
    static let cfnetwork = "YourSDK/1.0 com.apple.CFNetwork/1494.0.7"
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1"
    static let curl = "curl/7.88.1"
}
