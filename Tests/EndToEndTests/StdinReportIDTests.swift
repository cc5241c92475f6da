import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The report id of a scan of stdin hashes everything read (a SHA-256 the scanner computes as
/// the bytes stream by): it must be the id rebuilt from `sha256sum`'s digest of the same
/// bytes, so the hash is the standard one and pieces of any size add up to it.
@Suite struct StdinReportIDTests {
    @Test func stdinReportIDIsBuiltOnSha256sumOfTheInput() throws {
        let dir = try Scratch()
        // About 2.5 MB: many read(2)s, and pieces that end anywhere in a 64-byte block.
        let sample = try String(
            contentsOf: Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log"), encoding: .utf8)
        let text = String(repeating: sample, count: 80) + "a last line without its newline"
        let path = try dir.write("stdin.log", text)
        let digest = try ExternalTool.run("/usr/bin/sha256sum", [path])
        let contentHash = try #require(digest.stdout.split(separator: " ").first.map(String.init))
        #expect(contentHash.count == 64)

        let result = try Tool.run(["scan", "--json", "-"], stdin: Array(text.utf8), directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try ReportEncoding.decode(result.stdout)
        let configuration = ScanConfiguration(format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin())
        let rebuilt = ReportIdentity.scanID(
            report, configuration: configuration, contents: [contentHash], host: Syscalls.hostName())
        #expect(report.reportID == rebuilt)
        // And a digest one hex digit off gives another id, so the comparison can fail.
        let other = (contentHash.first == "0" ? "1" : "0") + contentHash.dropFirst()
        #expect(
            report.reportID
                != ReportIdentity.scanID(
                    report, configuration: configuration, contents: [other], host: Syscalls.hostName()))
    }
}
