import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct FileIdentityTests {
    @Test func fingerprintIsStableAndSensitive() {
        let a = FileIdentity.fingerprint(of: Array("127.0.0.1 - - [29/Nov/2026:10:00:00 +0000] ...".utf8))
        #expect(a == FileIdentity.fingerprint(of: Array("127.0.0.1 - - [29/Nov/2026:10:00:00 +0000] ...".utf8)))
        #expect(a != FileIdentity.fingerprint(of: Array("127.0.0.1 - - [29/Nov/2026:10:00:01 +0000] ...".utf8)))
        #expect(a.count == 16)
    }

    @Test func aCompressedCopyMatchesByContent() throws {
        let dir = try TempDirectory()
        let text = (0..<500).map { "line \($0) of the log" }.joined(separator: "\n") + "\n"
        let plain = try dir.write("access.log.1", Array(text.utf8))
        let gz = try dir.write("access.log.1.gz", try GzipSourceTests.gzip(Array(text.utf8)))
        let status = try #require(try Syscalls.status(plain))
        let identity = try LogFile.open(path: plain, compressed: false).identity
        #expect(identity.fingerprintBytes == FileIdentity.maxFingerprintBytes)
        #expect(identity.inode == status.inode)
        #expect(ContentPrefix.matches(path: plain, identity: identity))
        #expect(ContentPrefix.matches(path: gz, identity: identity))
        let other = try dir.write("other.log", Array(text.replacingOccurrences(of: "line 3 ", with: "LINE 3 ").utf8))
        #expect(!ContentPrefix.matches(path: other, identity: identity))
        // A file shorter than the fingerprint does not match.
        let short = try dir.write("short.log", Array(text.utf8.prefix(100)))
        #expect(!ContentPrefix.matches(path: short, identity: identity))
    }

    @Test func lastLineEndLeavesAPartialLineForLater() throws {
        let dir = try TempDirectory()
        let file = try LogFile.open(path: try dir.write("a.log", Array("one\ntwo\nthr".utf8)), compressed: false)
        #expect(try file.lastLineEnd(from: 0, size: 11) == 8)
        #expect(try file.lastLineEnd(from: 8, size: 11) == 8)
        #expect(try file.lastLineEnd(from: 4, size: 8) == 8)
        #expect(try file.lastLineEnd(from: 0, size: 3) == 0)
        #expect(try file.lastLineEnd(from: 0, size: 30) == 0)  // it shrank meanwhile
    }

    @Test func anIdentityOfFewerThan256BytesNeverMatches() throws {
        let dir = try TempDirectory()
        let line = Array("10.0.0.1 - - [29/Nov/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 2\n".utf8)
        let short = try LogFile.open(path: try dir.write("short.log", line), compressed: false)
        #expect(!short.identity.isStrong)
        #expect(!ContentPrefix.matches(path: short.path, identity: short.identity))
        let empty = try LogFile.open(path: try dir.write("empty.log", []), compressed: false)
        #expect(empty.identity.fingerprintBytes == 0)
        #expect(!ContentPrefix.matches(path: short.path, identity: empty.identity))
        let long = try LogFile.open(
            path: try dir.write("long.log", Array(repeating: line, count: 5).flatMap { $0 }), compressed: false)
        #expect(long.identity.isStrong)
        #expect(ContentPrefix.matches(path: long.path, identity: long.identity))
    }
}
