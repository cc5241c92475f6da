import Foundation
import Testing

@testable import UAAuditCore

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
        let identity = try LogPlanner.identity(plain, status)
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
        let path = try dir.write("a.log", Array("one\ntwo\nthr".utf8))
        var plan = LogPlan()
        #expect(LogPlanner.lastLineEnd(path, from: 0, size: 11, into: &plan) == 8)
        #expect(LogPlanner.lastLineEnd(path, from: 8, size: 11, into: &plan) == 8)
        #expect(LogPlanner.lastLineEnd(path, from: 4, size: 8, into: &plan) == 8)
        #expect(LogPlanner.lastLineEnd(path, from: 0, size: 3, into: &plan) == 0)
        #expect(LogPlanner.lastLineEnd(path, from: 0, size: 30, into: &plan) == 0)  // it shrank meanwhile
        #expect(plan.errors.isEmpty)
    }

    @Test func lastLineEndRecordsAFileThatCannotBeRead() throws {
        var plan = LogPlan()
        #expect(LogPlanner.lastLineEnd("/nonexistent/a.log", from: 5, size: 11, into: &plan) == 5)
        #expect(
            plan.errors == [InputError(path: "/nonexistent/a.log", reason: "cannot open: No such file or directory")])
    }
}
