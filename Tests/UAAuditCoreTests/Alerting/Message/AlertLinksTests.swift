import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct AlertLinksTests {
    /// A scan of standard input has no file to name: the command says to pipe the same input
    /// to it, rather than a bare `-` that would wait on a terminal.
    @Test func aCommandOnStandardInputSaysToPipeTheSameInput() {
        let links = AlertLinks(reportPath: nil, otherwise: ["--min-requests", "50", "-"])
        #expect(
            links.explainCommand(hour: "2026-11-29T17:00:00+08:00")
                == "(stdin: pipe the same input to) uaaudit explain 2026-11-29T17:00:00+08:00 --min-requests 50 -")
        #expect(
            AlertLinks(reportPath: "/r.json", otherwise: ["-"]).explainCommand(hour: "2026-11-29T17")
                == "uaaudit explain 2026-11-29T17 /r.json")
    }
}
