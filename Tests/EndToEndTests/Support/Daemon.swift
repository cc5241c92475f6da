import Foundation
import WebhookReceiver

/// A server a test starts on a free loopback port (node_exporter, Prometheus), with its own
/// log file; stopped when the value goes away.
final class Daemon {
    let port: Int
    let process: Process
    let log: String
    var base: String { "http://127.0.0.1:\(port)" }

    struct NotReady: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable` with `arguments(port)` and waits until `readyPath` answers.
    init(_ executable: String, log: String, readyPath: String, arguments: (Int) -> [String]) throws {
        port = try WebhookReceiver.refusingPort()
        self.log = log
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(port)
        let output = FileHandle(forWritingAtPath: log) ?? FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            if (try? ExternalTool.get(base + readyPath)) ?? nil != nil { return }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        process.waitUntilExit()
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw NotReady(description: "\(executable) did not answer on port \(port): \(said.suffix(2000))")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
