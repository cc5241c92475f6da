import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RunTotalsTests {
    @Test func aRunsLinesAreAddedAndTheSuccessTimeMovesOnlyOnSuccess() throws {
        let configuration = ScanConfiguration(format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin())
        let text = [
            LogLines.uaLog(ua: LogLines.urlsession), LogLines.uaLog(ua: LogLines.cfnetwork),
            LogLines.uaLog(time: "29/Nov/2026:18:00:00 +0800", ua: "-"), "junk",
        ].joined(separator: "\n")
        let dir = try TempDirectory()
        let path = try dir.write("a.log", Array(text.utf8))
        let result = Scanner(configuration: configuration).scan([path])
        let hours = result.hours.mapValues { HourCounts($0, configuration: configuration) }
        var totals = RunTotals.after(
            nil, adding: hours, of: result, now: 100, succeeded: true, generatedAt: "T0")
        #expect(totals.since == "T0")
        #expect(totals.classes == ["webview": 0, "urlsession": 1, "inconsistent": 1, "other": 0, "missing": 1])
        #expect(totals.malformed == 1)
        #expect(totals.lastSuccess == 100)
        totals = RunTotals.after(
            totals, adding: hours, of: result, now: 200, succeeded: false, generatedAt: "T1")
        #expect(totals.since == "T0")
        #expect(totals.classes["urlsession"] == 2)
        #expect(totals.malformed == 2)
        #expect(totals.lastSuccess == 100)
    }

    @Test func aStateWithoutTotalsStillLoadsAndTotalsRoundTrip() throws {
        let dir = try TempDirectory()
        let old = try dir.write(
            "old.json",
            Array(
                #"{"version": 1, "logs": {}, "hours": {}, "malformed": {}, "malformed_samples": [], "gaps": [], "alerts_sent": [], "alerts_pending": []}"#
                    .utf8))
        #expect(try RunState.load(path: old).totals == nil)
        var state = RunState()
        var totals = RunTotals(since: "2026-11-29T10:00:00Z")
        totals.classes = ["urlsession": 5]
        totals.outOfScope = 3
        totals.lastSuccess = 7
        state.totals = totals
        let bytes = try state.encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self).contains(
                #""totals" : {"# + "\n" + #"    "classes" : {"# + "\n" + #"      "urlsession" : 5"#))
        #expect(try RunState.load(path: try dir.write("new.json", bytes)) == state)
    }
}
