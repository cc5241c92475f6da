import XCTest

@testable import UAAuditCLI

/// The exit statuses are a contract with scripts and cron: their values and their help text.
final class ExitCodeTests: XCTestCase {
    func testValuesAreTheDocumentedOnes() {
        XCTAssertEqual(ExitCode.success.rawValue, 0)
        XCTAssertEqual(ExitCode.alert.rawValue, 1)
        XCTAssertEqual(ExitCode.usage.rawValue, 2)
        XCTAssertEqual(ExitCode.input.rawValue, 3)
        XCTAssertEqual(ExitCode.delivery.rawValue, 4)
        XCTAssertEqual(ExitCode.locked.rawValue, 5)
        XCTAssertEqual(ExitCode.output.rawValue, 6)
        XCTAssertEqual(ExitCode.encoding.rawValue, 7)
        XCTAssertEqual(ExitCode.formatMismatch.rawValue, 8)
    }

    func testACommandListsOnlyItsStatuses() {
        XCTAssertEqual(
            ExitCode.helpText(for: [.success, .usage]),
            "Exit status:\n  0  done\n  2  usage or configuration error (nothing was audited)")
    }

    func testHelpTextListsEveryStatusOnce() {
        let lines = ExitCode.helpText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Exit status:")
        XCTAssertEqual(
            lines.dropFirst().compactMap { Int32($0.trimmingCharacters(in: .whitespaces).prefix(1)) },
            [0, 1, 2, 3, 4, 5, 6, 7, 8])
    }
}
