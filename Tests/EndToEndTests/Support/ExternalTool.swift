import Foundation
import Testing

/// A program a test needs that is not part of uaaudit (promtool, node_exporter, Chromium, script).
///
/// When it is missing the test says so loudly and skips; with `UAAUDIT_REQUIRE_SERVERS=1` (CI)
/// a missing program is a failure instead.
enum ExternalTool {
    static let required = ProcessInfo.processInfo.environment["UAAUDIT_REQUIRE_SERVERS"] == "1"

    /// The first executable of `paths`, or nil after the message (and the failure, in CI).
    static func find(_ paths: [String], package: String, test: String) -> String? {
        if let found = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        let message =
            "\(package.uppercased()) IS NOT INSTALLED: \(test) is SKIPPED. Install it (scripts/install-deps.sh)."
        print("\n*** \(message) ***\n")
        if required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
        return nil
    }

    static func promtool(_ test: String) -> String? {
        find(["/usr/bin/promtool", "/usr/local/bin/promtool"], package: "prometheus (promtool)", test: test)
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
