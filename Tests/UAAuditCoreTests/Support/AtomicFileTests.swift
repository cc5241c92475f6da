import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct AtomicFileTests {
    @Test func writesWholeFilesWithTheModeAndLeavesNoTemp() throws {
        let dir = try TempDirectory()
        let path = dir.path("state.json")
        try AtomicFile.write(Array("first".utf8), to: path, mode: 0o600)
        try AtomicFile.write(Array("second".utf8), to: path, mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["state.json"])
    }

    @Test func aFileThatExistsKeepsTheBitsItLacks() throws {
        let dir = try TempDirectory()
        let path = dir.path("report.json")
        try AtomicFile.write(Array("first".utf8), to: path, mode: 0o644)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o644)
        for (chmod, after) in [(0o600, 0o600), (0o640, 0o640), (0o666, 0o644), (0o400, 0o400)] {
            try FileManager.default.setAttributes([.posixPermissions: chmod], ofItemAtPath: path)
            try AtomicFile.write(Array("again".utf8), to: path, mode: 0o644)
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == after)
        }
        // The state's 0600 is never widened by a looser file.
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        try AtomicFile.write(Array("state".utf8), to: path, mode: 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aLinkIsFollowedAndKeptAndNoDeviceIsReplaced() throws {
        let dir = try TempDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir.path("link"), withDestinationPath: "real")
        try AtomicFile.write(Array("x".utf8), to: dir.path("link"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.path("link")) == "real")
        #expect(try String(contentsOfFile: dir.path("real"), encoding: .utf8) == "x")
        // Scratch stand-ins only: a regression must never replace the machine's /dev files.
        #expect(mkfifo(dir.path("fifo"), 0o644) == 0)
        #expect(throws: SystemError(errno: EINVAL, call: "rename")) { try AtomicFile.write([], to: dir.path("fifo")) }
        try FileManager.default.createSymbolicLink(atPath: dir.path("out"), withDestinationPath: "/proc/self/fd/1")
        #expect(throws: SystemError(errno: EINVAL, call: "rename")) { try AtomicFile.write([], to: dir.path("out")) }
        #expect(throws: SystemError(errno: EISDIR, call: "rename")) { try AtomicFile.write([], to: dir.url.path) }
    }

    @Test func removesTempsOfDeadWritersAndKeepsThoseOfLiveOnes() throws {
        let dir = try TempDirectory()
        // A pid that has certainly exited: a child we started and waited for.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        let live = getppid()
        try dir.write(".state.json.tmp.\(dead)", Array("torn".utf8))
        try dir.write(".state.json.tmp.\(live)", Array("in progress".utf8))
        try dir.write(".other.json.tmp.\(dead)", Array("another target's".utf8))
        try AtomicFile.write(Array("new".utf8), to: dir.path("state.json"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        #expect(names == [".other.json.tmp.\(dead)", ".state.json.tmp.\(live)", "state.json"])
    }

    @Test func aMissingDirectoryIsAnErrorAndWritesNothing() {
        #expect(throws: SystemError(errno: ENOENT, call: "open")) {
            try AtomicFile.write(Array("x".utf8), to: "/nonexistent-dir/report.json")
        }
    }
}
