import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct OutputPathTests {
    @Test func stdoutNamesAndLinksToThemAreStandardOutput() throws {
        let dir = try TempDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir.path("out"), withDestinationPath: "/proc/self/fd/1")
        try FileManager.default.createSymbolicLink(atPath: dir.path("out2"), withDestinationPath: "out")
        for path in ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", dir.path("out"), dir.path("out2")] {
            #expect(try OutputPath.resolve(path) == .standardOutput, "\(path)")
        }
    }

    @Test func linksAreFollowedToTheFileTheyNameExistingOrNot() throws {
        let dir = try TempDirectory()
        try dir.write("real.json", [])
        try FileManager.default.createSymbolicLink(atPath: dir.path("a"), withDestinationPath: "real.json")
        try FileManager.default.createSymbolicLink(atPath: dir.path("b"), withDestinationPath: dir.path("a"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("c"), withDestinationPath: "missing.json")
        #expect(try OutputPath.resolve(dir.path("real.json")) == .file(dir.path("real.json")))
        #expect(try OutputPath.resolve(dir.path("b")) == .file(dir.path("real.json")))
        #expect(try OutputPath.resolve(dir.path("c")) == .file(dir.path("missing.json")))
        #expect(try OutputPath.resolve(dir.path("new.json")) == .file(dir.path("new.json")))
    }

    @Test func whatIsNoRegularFileIsAProblem() throws {
        let dir = try TempDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("d"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.path("ld"), withDestinationPath: "d")
        try FileManager.default.createSymbolicLink(atPath: dir.path("loop"), withDestinationPath: "loop")
        #expect(throws: OutputPath.Problem.notARegularFile(.directory, via: nil)) {
            try OutputPath.resolve(dir.path("d"))
        }
        #expect(throws: OutputPath.Problem.notARegularFile(.directory, via: dir.path("d"))) {
            try OutputPath.resolve(dir.path("ld"))
        }
        #expect(throws: OutputPath.Problem.notARegularFile(.characterDevice, via: nil)) {
            try OutputPath.resolve("/dev/null")
        }
        #expect(throws: OutputPath.Problem.tooManyLinks) { try OutputPath.resolve(dir.path("loop")) }
    }
}
