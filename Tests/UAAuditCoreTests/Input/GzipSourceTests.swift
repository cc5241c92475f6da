import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct GzipSourceTests {
    /// Compresses with the system's gzip, so the test does not trust uaaudit's own zlib use.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-n"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    func lines(of compressed: [UInt8], step: Int = 1 << 20) throws(InputError) -> [String] {
        var gzip = try GzipSource(base: MemorySource(compressed, step: step), path: "t.gz")
        var sink = CollectingSink()
        try LineReader(blockSize: 64, maxLineBytes: 1024).read(&gzip, into: &sink)
        return sink.lines.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func decompressesOneMember() throws {
        let text = (1...500).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let compressed = try Self.gzip(Array(text.utf8))
        #expect(GzipSource<MemorySource>.isGzip(compressed))
        for step in [1, 100, 1 << 20] {
            #expect(try lines(of: compressed, step: step) == (1...500).map { "line \($0)" })
        }
    }

    @Test func concatenatedMembersAreReadOneAfterAnother() throws {
        let a = try Self.gzip(Array("a1\na2\n".utf8))
        let b = try Self.gzip(Array("b1\nb2".utf8))
        #expect(try lines(of: a + b) == ["a1", "a2", "b1", "b2"])
        // Members join like the bytes they hold: b's unterminated last line runs into a's first.
        #expect(try lines(of: a + b + a) == ["a1", "a2", "b1", "b2a1", "a2"])
    }

    @Test func truncatedFileIsAnErrorAfterTheLinesItHad() throws {
        let text = (1...2000).map { "line number \($0) with some text" }.joined(separator: "\n") + "\n"
        let compressed = try Self.gzip(Array(text.utf8))
        let cut = Array(compressed.prefix(compressed.count - 20))
        var gzip = try GzipSource(base: MemorySource(cut), path: "t.gz")
        var sink = CollectingSink()
        #expect(throws: InputError.self) { try LineReader(blockSize: 64, maxLineBytes: 1024).read(&gzip, into: &sink) }
        do {
            var again = try GzipSource(base: MemorySource(cut), path: "t.gz")
            try LineReader(blockSize: 64, maxLineBytes: 1024).read(&again, into: &sink)
        } catch {
            #expect(error.reason == "truncated gzip file: it ends inside a compressed member")
        }
        #expect(sink.lines.count > 1000)
    }

    @Test func corruptDataIsAnError() throws {
        var compressed = try Self.gzip(Array(String(repeating: "hello world\n", count: 100).utf8))
        for i in 12..<min(40, compressed.count) { compressed[i] ^= 0x5A }
        #expect(throws: InputError.self) { _ = try lines(of: compressed) }
    }

    @Test func trailingGarbageAfterAMemberIsAnError() throws {
        let compressed = try Self.gzip(Array("x\n".utf8)) + Array("not gzip".utf8)
        #expect(throws: InputError.self) { _ = try lines(of: compressed) }
    }

    /// A gzip member written by hand: stored deflate blocks holding `text`, then a block of the
    /// reserved type 3, which zlib refuses ("invalid block type").
    static func memberBrokenAfter(_ text: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        var start = 0
        while start < text.count {
            let n = min(65_535, text.count - start)
            bytes += [0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            bytes += text[start..<(start + n)]
            start += n
        }
        return bytes + [0b110, 0, 0, 0]
    }

    @Test func corruptDataIsAnErrorAfterTheLinesInflatedBeforeIt() throws {
        let expected = (1...12_000).map { "line \($0) of the part before the damage" }
        let text = Array((expected.joined(separator: "\n") + "\n").utf8)
        let compressed = Self.memberBrokenAfter(text)
        // One read of the whole input and reads of 256 KiB: the damage comes in the same inflate
        // call as the last good bytes, which must still reach the lines.
        for step in [1 << 20, 4096] {
            var gzip = try GzipSource(base: MemorySource(compressed, step: step), path: "t.gz")
            var sink = CollectingSink()
            var failure: InputError?
            do {
                try LineReader(blockSize: 256 << 10, maxLineBytes: 1024).read(&gzip, into: &sink)
            } catch {
                failure = error
            }
            #expect(
                failure?.reason
                    == "corrupt gzip data: invalid block type; the lines inflated from this member before it are counted but unverified"
            )
            #expect(sink.lines.map { String(decoding: $0, as: UTF8.self) } == expected)
        }
    }

    @Test func zeroPaddingAfterTheLastMemberIsTheEnd() throws {
        let a = try Self.gzip(Array("a1\na2\n".utf8))
        let b = try Self.gzip(Array("b1\n".utf8))
        let zeros = [UInt8](repeating: 0, count: 512)
        for step in [1, 7, 1 << 20] {
            #expect(try lines(of: a + b + zeros, step: step) == ["a1", "a2", "b1"])
            #expect(try lines(of: a + [0], step: step) == ["a1", "a2"])
        }
        // Zeros and then anything else are not padding.
        var failure: InputError?
        do { _ = try lines(of: a + zeros + b) } catch { failure = error }
        #expect(failure?.reason == "corrupt gzip data: bytes after zero padding at the end of the file")
    }
}
