import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RuleExampleTests {
    static let rules = #"""
        {"version": 1, "app": "MyApp", "alert_class": "inconsistent",
         "rules": [
           {"class": "urlsession", "patterns": ["^MyApp/\\d"]},
           {"class": "inconsistent", "patterns": ["CFNetwork/"]}
         ],
         "examples": [EXAMPLES]}
        """#

    func parse(_ examples: String) throws(RulesError) -> RuleSet {
        try RulesFile.parse(Array(Self.rules.replacingOccurrences(of: "EXAMPLES", with: examples).utf8), path: "r.json")
    }

    @Test func passingExamplesAreKeptWithTheApp() throws {
        let rules = try parse(
            #"{"ua": "MyApp/1 (iPhone; iOS 17.4)", "class": "urlsession"}, {"ua": "curl/8", "class": "other"}"#)
        #expect(rules.app == "MyApp")
        #expect(rules.summary.app == "MyApp")
        #expect(
            rules.examples == [
                RuleExample(ua: Array("MyApp/1 (iPhone; iOS 17.4)".utf8), className: "urlsession"),
                RuleExample(ua: Array("curl/8".utf8), className: "other"),
            ])
    }

    @Test func aFailingExampleNamesItselfAndTheRuleThatTookIt() {
        do {
            _ = try parse(#"{"ua": "MyApp/1 CFNetwork/1494.0.7 Darwin/23.4.0", "class": "inconsistent"}"#)
            Issue.record("expected a failing example")
        } catch {
            #expect(
                error.description
                    == "rules file r.json: example 'MyApp/1 CFNetwork/1494.0.7 Darwin/23.4.0' should be inconsistent, "
                    + "but rule 'urlsession' took it (pattern ^MyApp/\\d)")
        }
        do {
            _ = try parse(#"{"ua": "curl/8", "class": "urlsession"}"#)
            Issue.record("expected a failing example")
        } catch {
            #expect(
                error.description
                    == "rules file r.json: example 'curl/8' should be urlsession, but no rule matched it (other)")
        }
    }

    @Test func anExampleOfAnUnknownClassIsAnError() {
        #expect(throws: RulesError.unknownExampleClass(path: "r.json", ua: "x", name: "nope")) {
            _ = try parse(#"{"ua": "x", "class": "nope"}"#)
        }
    }

    @Test func noExamplesAndNoAppStillLoad() throws {
        let rules = try RulesFile.parse(
            Array(#"{"rules": [{"class": "inconsistent", "patterns": ["x"]}]}"#.utf8), path: "r.json")
        #expect(rules.app == nil)
        #expect(rules.examples.isEmpty)
        #expect(rules.summary.app == nil)
    }
}
