import Foundation

/// Runs the built `uaaudit` binary the way a user does.
enum Tool {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `uaaudit` binary SwiftPM built next to the test bundle, or `UAAUDIT_BINARY` when set
    /// (CI runs the hostile-input tests again on an AddressSanitizer build that way).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["UAAUDIT_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: repoRoot).standardizedFileURL
        }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("uaaudit")
    }

    /// True when the binary under test is an AddressSanitizer build (`UAAUDIT_ASAN=1`): its
    /// memory figures are ASan's, so tests do not assert them.
    static var underSanitizer: Bool { ProcessInfo.processInfo.environment["UAAUDIT_ASAN"] == "1" }

    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
        var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// `UAAUDIT_TEST_CLOCK_SHIFT` (such as `+365d`): every uaaudit that ``run(_:stdin:directory:environment:launcher:)``
    /// starts sees its clock shifted that far, through Debian's `faketime` wrapper (a bare
    /// LD_PRELOAD of libfaketime makes uaaudit lose its arguments). `.ci/run` runs the
    /// clock-sensitive suites so, so that a test that depends on today's date fails the day it is
    /// written. Only uaaudit is shifted: the test runner, nginx and the Python webhook receiver
    /// hang or fail under libfaketime (README: "No test depends on today's date").
    static var clockShift: [String] {
        guard let shift = ProcessInfo.processInfo.environment["UAAUDIT_TEST_CLOCK_SHIFT"], !shift.isEmpty else {
            return []
        }
        return ["/usr/bin/faketime", "-f", shift]
    }

    /// Runs `uaaudit args` in `directory` (default: the repository root), with `stdin` as input;
    /// through `launcher` (such as `setpriv …`) when one is given, and ``clockShift``.
    static func run(
        _ args: [String], stdin: [UInt8]? = nil, directory: URL = repoRoot, environment: [String: String] = [:],
        launcher: [String] = []
    )
        throws -> Result
    {
        let process = Process()
        let prefix = launcher + clockShift
        process.executableURL = prefix.isEmpty ? binary : URL(fileURLWithPath: prefix[0])
        process.arguments = prefix.isEmpty ? args : Array(prefix.dropFirst()) + [binary.path] + args
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["SOURCE_DATE_EPOCH"] = "0"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outPipe = Pipe()
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uaaudit-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let errHandle = try FileHandle(forWritingTo: errFile)
        process.standardOutput = outPipe
        process.standardError = errHandle
        let inPipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let stdin {
            let writer = inPipe.fileHandleForWriting
            let data = Data(stdin)
            Thread.detachNewThread {
                // The tool may stop reading before the end (doctor reads a sample of lines):
                // the rest cannot be written, which is not the test's failure.
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errHandle.close()
        let errData = try Data(contentsOf: errFile)
        return Result(
            status: process.terminationStatus, stdout: [UInt8](outData),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension Tool {
    /// A launcher that runs uaaudit under `mask` (such as "077"), as a cron job may.
    static func umask(_ mask: String) -> [String] {
        ["/bin/sh", "-c", "umask \(mask) && exec \"$0\" \"$@\""]
    }

    /// The permission bits of a file.
    static func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }
}

/// A fresh directory, removed when the value goes away.
final class Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let p = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }
}

enum Lines {
    static func uaLog(time: String = "29/Nov/2026:17:18:40 +0800", ua: String) -> String {
        "127.0.0.1 - - [\(time)] \"GET /api/v2/me HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\""
    }
    static let urlsession = "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
    static let cfnetwork = "YourSDK/1.0 com.apple.CFNetwork/1494.0.7"
}
