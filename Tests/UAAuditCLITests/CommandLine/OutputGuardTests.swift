import Foundation
import Testing

@testable import UAAuditCLI

@Suite struct OutputGuardTests {
    /// A directory with `a.log` in it; paths are given absolute.
    final class Place {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-guard-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data("x\n".utf8).write(to: url.appendingPathComponent("a.log"))
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CLIError)?.message ?? "\(error)"
        }
    }

    @Test func distinctPathsPass() throws {
        let p = try Place()
        #expect(
            message {
                try OutputGuard.check(
                    inputs: [.init("the input", p.path("a.log")), .init("the input", "-")],
                    readOnly: [.init("the rules file", p.path("a.log"))],
                    state: .init("--state", p.path("s.json")),
                    outputs: [.init("--out", p.path("r.json")), .init("--out", "-"), .init("--html", p.path("r.html"))])
            } == nil)
    }

    @Test func theStateIsNeitherAnInputNorUnderAnOutput() throws {
        let p = try Place()
        let log = p.path("a.log")
        let state = p.path("s.json")
        #expect(
            message {
                try OutputGuard.check(inputs: [.init("the log", log)], state: .init("--state", log), outputs: [])
            } == "--state \(log) would overwrite the log \(log); choose another path (nothing was written)")
        #expect(
            message {
                try OutputGuard.check(
                    inputs: [.init("the log", log)], state: .init("--state", state),
                    outputs: [.init("the lock", p.url.path + "/./s.json")])
            }
                == "the lock \(p.url.path + "/./s.json") would overwrite --state \(state); choose another path (nothing was written)"
        )
    }

    @Test(arguments: [("m.txt", false), ("m.prom", true), ("dir/uaaudit.prom", true), ("m.prom.tmp", false)])
    func promMustEndInDotProm(path: String, accepted: Bool) {
        #expect((message { try OutputGuard.checkProm(path, role: "--prom") } == nil) == accepted)
    }
}
