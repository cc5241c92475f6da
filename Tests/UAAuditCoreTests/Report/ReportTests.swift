import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ReportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A small log with every class, an alert hour, a quiet hour under min_requests and malformed lines.
    static func smallLog() -> String {
        var lines: [String] = []
        for i in 0..<120 {
            let ua = [LogLines.urlsession, LogLines.webview, LogLines.curl][i % 3]
            lines.append(LogLines.uaLog(time: "29/Nov/2026:17:\(String(i % 60).leftPad2):00 +0800", ua: ua))
        }
        lines.append(LogLines.uaLog(time: "29/Nov/2026:17:59:59 +0800", ua: LogLines.cfnetwork))
        lines.append(
            LogLines.uaLog(
                time: "29/Nov/2026:17:30:00 +0800", ua: #"Bad \x22quoted\x22 com.apple.CFNetwork \xFF\x1B[2J"#))
        lines.append(LogLines.uaLog(time: "29/Nov/2026:18:00:00 +0800", ua: LogLines.cfnetwork))
        lines.append(LogLines.uaLog(time: "29/Nov/2026:18:00:01 +0800", ua: "-"))
        lines.append("junk \u{7}")
        lines.append(LogLines.uaLog(time: "29/Nov/2026:18:00:02 +0800", ua: ""))
        return lines.joined(separator: "\n")
    }

    @Test func reportJSONEqualsTheGoldenFile() throws {
        let dir = try TempDirectory()
        let path = try dir.write("small.log", Array(Self.smallLog().utf8))
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: 1)
        var report = ReportBuilder.build(
            Scanner(configuration: configuration).scan([path]), configuration: configuration,
            generatedAt: "2026-11-29T10:00:00Z")
        report.sources[0].path = "small.log"
        for i in report.malformedSamples.indices { report.malformedSamples[i].path = "small.log" }
        let json = try ReportEncoding.encode(report)
        let golden = Self.fixtures.appendingPathComponent("small.report.json")
        if ProcessInfo.processInfo.environment["UAAUDIT_UPDATE_GOLDEN"] == "1" {
            try Data(json).write(to: golden)
        }
        let expected = [UInt8](try Data(contentsOf: golden))
        #expect(String(decoding: json, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try ReportEncoding.decode(json) == report)
    }

    /// The report is written an hour at a time; the bytes are those of one encoder pass over
    /// the whole report, for reports with hours, with none, and with empty lists inside hours.
    @Test func encodingHourByHourEqualsEncodingTheWholeReport() throws {
        let dir = try TempDirectory()
        let path = try dir.write("small.log", Array(Self.smallLog().utf8))
        for baseline in [0, 24] {
            var settings = InsightSettings()
            settings.baselineHours = baseline
            let configuration = ScanConfiguration(
                format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: 1, insight: settings)
            var report = ReportBuilder.build(
                Scanner(configuration: configuration).scan([path]), configuration: configuration,
                generatedAt: "2026-11-29T10:00:00Z")
            for variant in 0..<5 {
                if variant == 1 { report.hours = Array(report.hours.prefix(1)) }
                if variant == 2 { report.hours = [] }
                if variant == 3 {
                    // Every optional top-level key, as run and merge write them (and empty lists).
                    report.gaps = [
                        Report.Gap(
                            log: "/var/log/a \"b\".log", file: "/var/log/a.log.1", fromOffset: 10, toOffset: nil,
                            reason: "gone\nafter", detectedAt: "2026-11-29T10:00:00Z", uncertain: true)
                    ]
                    report.logs = [Report.LogEntry(path: "/a/b", readable: false, error: "x/y")]
                    report.reportID = "run-1"
                    report.mergedFrom = []
                    report.runOf = "logs-2"
                    report.mergedRunOf = [Report.RunHours(runOf: "logs-3", hours: [])]
                    report.clientSalt = "salt"
                    report.driftSettings = Report.DriftSettingsEntry(
                        baselineHours: 3, newFamilyShare: Threshold(parsing: "0.00001"), shareDrop: nil,
                        appClasses: [])
                    report.clientKeysShown = true
                    report.threshold = Threshold(parsing: "0.000015")!
                    report.malformedSamples = []
                }
                if variant == 4 { report.hours = Array(report.hours.prefix(1)) }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                let whole = [UInt8](try encoder.encode(report)) + [0x0A]
                var pieces = 0
                var streamed: [UInt8] = []
                try ReportEncoding.write(report) {
                    pieces += 1
                    streamed += $0
                }
                #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
                #expect(pieces == (report.hours.isEmpty ? 1 : report.hours.count + 2))
            }
        }
    }

    @Test func totalsAddUp() throws {
        let dir = try TempDirectory()
        let path = try dir.write("small.log", Array(Self.smallLog().utf8))
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: 1)
        let report = ReportBuilder.build(
            Scanner(configuration: configuration).scan([path]), configuration: configuration, generatedAt: "x")
        let t = report.totals
        #expect(t.lines == 126)
        #expect(t.lines == t.requests + t.malformed + t.outOfScope)
        #expect(t.requests == t.classes.values.reduce(0, +) + t.errors)
        #expect(t.classes == ["webview": 40, "urlsession": 40, "inconsistent": 3, "other": 40, "missing": 2])
        #expect(report.hours.map(\.alert) == [true, false])
        #expect(report.hours[1].requests == 3)
        #expect(report.hours[1].share == 1.0 / 3.0)
        #expect(t.alertHours == ["2026-11-29T17:00:00+08:00"])
        #expect(report.hours[0].top.map(\.count) == [1, 1])
        #expect(report.hours[0].top[0].ua == "Bad \"quoted\" com.apple.CFNetwork \\xFF\u{1B}[2J")
    }

    @Test(
        arguments: [
            ([0x61, 0x62], "ab"), ([0xE4, 0xB8, 0xAD], "中"), ([0xFF, 0x61], "\\xFFa"), ([0xC3, 0x28], "\\xC3("),
            ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80"), ([0xC0, 0xAF], "\\xC0\\xAF"), ([0xF0, 0x9F, 0x98, 0x80], "😀"),
            ([0xE4, 0xB8], "\\xE4\\xB8"),
        ] as [([UInt8], String)])
    func reportTextKeepsUTF8AndShowsOtherBytesAsHex(bytes: [UInt8], text: String) {
        #expect(ReportText.render(bytes) == text)
        #expect(ReportText.renderBytewise(bytes) == text)
    }

    /// The whole-string fast path (Swift's UTF-8 validation) takes exactly the strings the
    /// scalar-by-scalar rendering keeps as they are: every one- and two-byte sequence, and
    /// three- and four-byte ones around every boundary of well-formed UTF-8.
    @Test func reportTextsFastPathAgreesWithTheBytewiseRendering() {
        let edges: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
            0xF5, 0xFF,
        ]
        var different: [[UInt8]] = []
        var cases: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for a in 0...255 { for b in 0...255 { cases.append([UInt8(a), UInt8(b)]) } }
        for a in 0xC0...0xFF { for b in edges { for c in edges { cases.append([UInt8(a), b, c]) } } }
        for a in 0xF0...0xF7 {
            for b in edges { for c in edges { for d in edges { cases.append([UInt8(a), b, c, d]) } } }
        }
        for bytes in cases where ReportText.render(bytes) != ReportText.renderBytewise(bytes) {
            different.append(bytes)
        }
        #expect(cases.count > 70_000)
        #expect(different.prefix(5).map { $0 } == [])
    }
}
