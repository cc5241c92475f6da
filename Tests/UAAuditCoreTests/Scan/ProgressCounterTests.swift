import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ProgressCounterTests {
    static func configuration(threads: Int) throws -> ScanConfiguration {
        ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: threads, chunkBytes: 64 << 10
        )
    }

    @Test(arguments: [1, 3])
    func bytesDoneAreTheInputsBytesAndReachTheTotal(threads: Int) throws {
        let dir = try TempDirectory()
        let text = (0..<20_000).map { LogLines.uaLog(ua: "UA \($0)") }.joined(separator: "\n")
        let plain = try dir.write("a.log", Array(text.utf8))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        let compressed = plain + ".gz"
        let sizes = try [plain, compressed].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        let counter = ProgressCounter()
        counter.expect(inputs: [plain, compressed])
        #expect(counter.snapshot.total == sizes[0] + sizes[1])
        _ = Scanner(configuration: try Self.configuration(threads: threads), progress: counter).scan([
            plain, compressed,
        ])
        #expect(counter.snapshot.bytes == sizes[0] + sizes[1])
        #expect(counter.snapshot.lines == 40_000)
    }

    @Test func standardInputAndMissingFilesMakeTheTotalUnknown() {
        let counter = ProgressCounter()
        counter.expect(inputs: ["-"])
        counter.expect(bytes: 10)
        #expect(counter.snapshot.total == 0)
        let missing = ProgressCounter()
        missing.expect(inputs: ["/nonexistent/a.log"])
        #expect(missing.snapshot.total == 0)
    }
}
