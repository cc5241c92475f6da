import Foundation
import Testing

/// A program a test needs that is not part of uaaudit (promtool, node_exporter, Chromium, script).
///
/// A test that needs one carries `.requires(…)` (Requirement.swift), so that the runner reports
/// it as skipped when the program is missing; with `UAAUDIT_REQUIRE_SERVERS=1` (CI) the test
/// runs all the same and `find` fails it.
enum ExternalTool {
    static let required = ProcessInfo.processInfo.environment["UAAUDIT_REQUIRE_SERVERS"] == "1"

    /// The first executable of the requirement's paths, or nil when there is none or
    /// `UAAUDIT_TEST_HIDE_TOOLS` hides it. Every lookup goes through here.
    static func locate(_ tool: Requirement) -> String? {
        if tool.isHidden { return nil }
        return tool.paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    }

    /// The program, or nil after the loud message (and the failure, in CI).
    static func find(_ tool: Requirement, test: String) -> String? {
        if let found = locate(tool) { return found }
        let message =
            "\(tool.package.uppercased()) IS NOT INSTALLED: \(test) is SKIPPED. Install it (scripts/install-deps.sh)."
        print("\n*** \(message) ***\n")
        if required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
        return nil
    }

    static func promtool(_ test: String) -> String? {
        find(.promtool, test: test)
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable args` to its end, with stdout and stderr kept apart (stderr in a file,
    /// so a chatty program cannot fill a pipe and stall).
    static func run(_ executable: String, _ args: [String], directory: URL? = nil, environment: [String: String]? = nil)
        throws -> Output
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe()
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-tool-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let errHandle = try FileHandle(forWritingTo: errFile)
        process.standardOutput = out
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errHandle.close()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errFile), as: UTF8.self))
    }

    /// A GET with curl, as the Alertmanager tests do, so the test does not share uaaudit's HTTP code.
    static func get(_ url: String) throws -> String? {
        let result = try run("/usr/bin/curl", ["-sf", "--max-time", "2", url])
        return result.status == 0 ? result.stdout : nil
    }
}
