import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RulesLintTests {
    func lint(_ json: String) throws -> [RulesLint.Finding] {
        RulesLint.findings(try RulesFile.decode(Array(json.utf8), path: "r.json").compile(path: "r.json"))
    }

    @Test func flagsShadowingUntestedPatternsMissingExamplesAndLeadingWildcards() throws {
        let findings = try lint(
            #"""
            {"rules": [
               {"class": "urlsession", "patterns": ["MyApp/", "NeverUsed"]},
               {"class": "webview", "patterns": ["MyApp/.*Safari/"]},
               {"class": "inconsistent", "patterns": [".*CFNetwork/", "(?i).*darwin"]}
             ],
             "examples": [
               {"ua": "MyApp/1 (iPhone)", "class": "urlsession"},
               {"ua": "MyApp/1 (iPhone) Safari/604.1", "class": "webview"},
               {"ua": "A/1 CFNetwork/1 Darwin/2", "class": "inconsistent"}
             ]}
            """#)
        #expect(
            findings.map(\.description) == [
                "shadowed: rule 'webview': earlier rule 'urlsession' takes its example 'MyApp/1 (iPhone) Safari/604.1' "
                    + "(pattern MyApp/)",
                "untested pattern: rule 'urlsession': pattern NeverUsed matches none of the rule's 1 examples",
                "leading .*: rule 'inconsistent': pattern .*CFNetwork/ starts with .* (patterns are unanchored "
                    + "already; drop it, or anchor with ^)",
                "leading .*: rule 'inconsistent': pattern (?i).*darwin starts with .* (patterns are unanchored "
                    + "already; drop it, or anchor with ^)",
            ])
    }

    @Test func aRuleWithoutExamplesAndAFailingExampleAreFindings() throws {
        let findings = try lint(
            #"""
            {"rules": [{"class": "a", "patterns": ["x"]}, {"class": "inconsistent", "patterns": ["y"]}],
             "examples": [{"ua": "y", "class": "inconsistent"}, {"ua": "z", "class": "inconsistent"}]}
            """#)
        #expect(findings.map(\.kind) == [.failingExample, .noExamples])
        #expect(findings[0].message == "example 'z' should be inconsistent, but no rule matched it (other)")
    }

    @Test func theShippedRulesLintClean() throws {
        let path = RulesFileTests.repoRoot.appendingPathComponent("rules/ios-defaults.json").path
        let bytes = try FileBytes.readAll(path: path, limit: 1 << 20)
        #expect(RulesLint.findings(try RulesFile.decode(bytes, path: path).compile(path: path)) == [])
    }
}
