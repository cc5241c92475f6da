import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct PaletteTests {
    static let choices: [(Bool, [String: String], Palette)] = [
        (true, [:], .ansi),
        (true, ["TERM": "xterm-256color"], .ansi),
        (false, [:], .plain),
        (true, ["NO_COLOR": "1"], .plain),
        (true, ["NO_COLOR": "0"], .plain),
        (true, ["NO_COLOR": ""], .ansi),
        (true, ["TERM": "dumb"], .plain),
    ]

    @Test(arguments: choices)
    func colourOnlyOnATerminalAndNeverWithNoColor(terminal: Bool, environment: [String: String], palette: Palette) {
        #expect(Palette.forStandardOutput(isTerminal: terminal, environment: environment) == palette)
    }

    @Test func stylesWrapTextAndPlainLeavesIt() {
        #expect(Palette.ansi.alert("x !") == "\u{1B}[1;31mx !\u{1B}[0m")
        #expect(Palette.ansi.strong("total") == "\u{1B}[1mtotal\u{1B}[0m")
        #expect(Palette.ansi.strong("") == "")
        #expect(Palette.plain.alert("x !") == "x !")
    }

    static func report(alert: Bool) -> Report {
        let classes: [String: Int64] = ["webview": 0, "urlsession": 148, "inconsistent": 2, "other": 0, "missing": 0]
        let hour = Report.HourEntry(
            hour: "2026-11-29T17:00:00+08:00", requests: 150, classes: classes, shares: [:], share: 2.0 / 150.0,
            alert: alert, errors: 0, outOfScope: 0, top: [Report.TopEntry(ua: "evil \u{1B}[2J", count: 2)],
            topApproximate: false)
        return Report(
            generatedAt: "x", sources: [], format: Report.FormatEntry(name: nil, string: "", escape: .default),
            rules: RuleSet.builtin().summary, threshold: Threshold(parsing: "0.001")!, minRequests: 100,
            totals: Report.Totals(
                lines: 150, requests: 150, malformed: 0, outOfScope: 0, errors: 0, classes: classes,
                share: 2.0 / 150.0, alertHours: alert ? [hour.hour] : []),
            hours: [hour], malformedSamples: [])
    }

    @Test func theColouredSummaryIsThePlainOneWithCodesAroundWholeLines() throws {
        for alert in [true, false] {
            let report = Self.report(alert: alert)
            let plain = Summary.render(report)
            let coloured = Summary.render(report, palette: .ansi)
            #expect(coloured.replacing(/\x1B\[[0-9;]*m/, with: "") == plain)
            let lines = coloured.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[0].hasPrefix("\u{1B}[1mhour ") && lines[0].hasSuffix("share\u{1B}[0m"))
            #expect(lines[1].hasPrefix("\u{1B}[1;31m2026-11-29 17:00+08:00") == alert)
            #expect(lines[2].hasPrefix("\u{1B}[1mtotal "))
            #expect(lines[5].hasPrefix("\u{1B}[1;31malert hours") == alert)
            #expect(lines[8] == "\u{1B}[1mtop inconsistent UAs:\u{1B}[0m")
            // The log's own escape byte is still shown escaped, never passed through.
            #expect(lines[9] == "       2  evil \\x1B[2J")
        }
    }
}
