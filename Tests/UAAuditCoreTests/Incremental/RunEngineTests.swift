import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The run's check that the live log is still as it was opened when its position is committed.
@Suite struct RunEngineTests {
    @Test func aLiveLogCutOrRewrittenSinceItWasOpenedIsChanged() throws {
        let dir = try TempDirectory()
        let path = try dir.write("access.log", Array(String(repeating: "line of the log\n", count: 300).utf8))
        let file = try LogFile.open(path: path, compressed: false)
        #expect(RunEngine.liveLogChanged(file) == nil)
        // Grown: as it was, and more.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("one more\n".utf8))
        #expect(RunEngine.liveLogChanged(file) == nil)
        // copytruncate, then written again: shorter than when it was opened.
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("new\n".utf8))
        #expect(RunEngine.liveLogChanged(file) == "truncated to 4 bytes from 4800 while planned")
        // As long as before, other first bytes.
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data(String(repeating: "another line...\n", count: 300).utf8))
        try handle.close()
        #expect(RunEngine.liveLogChanged(file) == "its first bytes changed while it was planned")
    }
}
