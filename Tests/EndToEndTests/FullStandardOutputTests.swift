import Foundation
import Testing

/// A stdout that cannot be written (a full disk: `/dev/full`) is an output error, exit 6 with a
/// message, for every command; a closed pipe (`| head`) still ends quietly
/// (``ClassifyClosedOutputTests``).
@Suite struct FullStandardOutputTests {
    static let commands: [String] = [
        "generate man",
        "scan --json --format combined SampleLogs/combined.log",
        "classify 'curl/8.0'",
    ]

    @Test(arguments: commands) func aFullStdoutIsExit6WithAMessage(command: String) throws {
        let script = "\"$0\" \(command) >/dev/full; echo \"status $?\""
        let result = try ExternalTool.run(
            "/bin/bash", ["-c", script, Tool.binary.path], directory: Tool.repoRoot)
        #expect(result.stdout == "status 6\n")
        #expect(result.stderr == "uaaudit: cannot write to standard output: No space left on device\n")
    }
}
