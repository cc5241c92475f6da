import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A report is told from a log by content, and a log is read no further than its second line.
@Suite struct ReportFileTests {
    static let pretty = "{\n  \"hours\" : [\n\n  ],\n  \"schema\" : \"uaaudit.report/1\"\n}\n"

    @Test(arguments: [
        ("a report as uaaudit writes it", pretty, true),
        ("the same on one line", "{\"hours\":[],\"schema\":\"uaaudit.report/1\"}\n", true),
        ("a report cut short (its first line a lone brace)", "{\n  \"hours\" : [\n", true),
        (
            "a report whose first key shares the brace's line", "{\"schema\": \"uaaudit.report/1\",\n\"hours\": []}\n",
            true
        ),
        ("other JSON, pretty-printed", "{\n \"foo\": 1\n}\n", false),
        ("JSON lines: an escape=json access log", "{\"ua\":\"a\"}\n{\"ua\":\"b\"}\n", false),
        ("one JSON line", "{\"ua\":\"a\"}\n", false),
        ("an access log", "127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] \"GET / HTTP/1.1\" 200 2\n", false),
        ("blank lines before a report", "\n\n" + pretty, true),
        ("an empty file", "", false),
    ])
    func tellsAReportFromALog(what: String, content: String, isReport: Bool) throws {
        let dir = try TempDirectory()
        let path = try dir.write("input", Array(content.utf8))
        #expect(ReportFile.isReport(path: path) == isReport, "\(what)")
    }

    @Test func theHeadStopsAtTheSecondLinesFirstByte() throws {
        let dir = try TempDirectory()
        let path = try dir.write(
            "log", Array("  {\"a\":1}\r\n  \n{\"b\":2}\n".utf8) + [UInt8](repeating: 0x41, count: 1 << 20))
        let head = try #require(LogTail.head(path: path, keep: 64))
        #expect(head == LogTail.Head(line: Array("{\"a\":1}\r".utf8), lineComplete: true, moreAfterLine: true))
    }

    @Test func aFirstLineLongerThanKeptIsNotComplete() throws {
        let dir = try TempDirectory()
        let path = try dir.write("log", Array("{\"ua\":\"".utf8) + [UInt8](repeating: 0x41, count: 100) + [0x0A])
        let head = try #require(LogTail.head(path: path, keep: 10))
        #expect(head == LogTail.Head(line: Array("{\"ua\":\"AAA".utf8), lineComplete: false, moreAfterLine: false))
        #expect(LogTail.head(path: dir.path("missing"), keep: 10) == nil)
    }
}
