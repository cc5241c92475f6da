import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A report that cannot be encoded (here a NaN share, which JSON cannot hold) is exit 7, an
/// internal error, never 3 ("input"); the previous report file is untouched.
@Suite struct ReportOutputTests {
    static func report(share: Double) throws -> Report {
        let configuration = ScanConfiguration(format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin())
        var report = ReportBuilder.build(
            AuditResult(classCount: configuration.rules.classCount, sampleLimit: 1), configuration: configuration,
            generatedAt: "x")
        report.totals.share = share
        return report
    }

    @Test func anUnencodableReportIsExitSevenAndLeavesTheOldFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("report.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let console = Console()
        #expect(
            ReportOutput.write(try Self.report(share: .nan), to: path, console: console, untouched: "x")
                == .encoding)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.json"])
        #expect(
            ReportOutput.write(try Self.report(share: 0.25), to: path, console: console, untouched: "x") == nil)
        #expect(try ReportEncoding.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path)))).totals.share == 0.25)
        #expect(ExitCode.encoding.rawValue == 7)
    }
}
