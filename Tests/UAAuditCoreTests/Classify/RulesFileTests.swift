import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RulesFileTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func parse(_ json: String) throws(RulesError) -> RuleSet {
        try RulesFile.parse(Array(json.utf8), path: "test.json")
    }

    @Test func parsesRulesAlertClassScopeAndLimits() throws {
        let rules = try parse(
            """
            {"version": 1, "alert_class": "b", "scope": {"path": "^/api/"}, "match_limit": 5000,
             "rules": [{"class": "a", "patterns": ["x", "y"]}, {"class": "b", "patterns": ["z"], "comment": "why"}]}
            """)
        #expect(rules.classNames == ["a", "b", "other", "missing"])
        #expect(rules.alertClass == "b")
        #expect(rules.rules[0].patterns.map(\.source) == ["x", "y"])
        #expect(rules.rules[1].comment == "why")
        #expect(rules.scope?.source == "^/api/")
        #expect(rules.limits == MatchLimits(matchLimit: 5000, heapLimitKiB: MatchLimits.standard.heapLimitKiB))
    }

    @Test func errorsNameTheFileAndTheProblem() {
        #expect(throws: RulesError.unsupportedVersion(path: "test.json", version: 2)) {
            _ = try parse(#"{"version": 2, "rules": [{"class": "a", "patterns": ["x"]}]}"#)
        }
        #expect(throws: RulesError.noRules(path: "test.json")) { _ = try parse(#"{"rules": []}"#) }
        #expect(throws: RulesError.invalidJSON(path: "test.json", message: "missing key 'rules' at the top level")) {
            _ = try parse(#"{"version": 1}"#)
        }
        #expect(
            throws: RulesError.badPattern(
                rule: "scope", pattern: "(", message: "missing closing parenthesis", offset: 1)
        ) {
            _ = try parse(
                #"{"scope": {"path": "("}, "rules": [{"class": "a", "patterns": ["x"]}], "alert_class": "a"}"#)
        }
        do {
            _ = try parse("{not json")
            Issue.record("expected an error")
        } catch {
            guard case .invalidJSON(let path, let message) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(path == "test.json")
            #expect(message.hasPrefix("not JSON"))
        }
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: RulesError.unreadable(path: "/nonexistent/rules.json", reason: "No such file or directory")) {
            _ = try RulesFile.load(path: "/nonexistent/rules.json")
        }
    }

    @Test func shippedBuiltinFileEqualsTheBuiltinRules() throws {
        let file = try RulesFile.load(path: RulesFileTests.repoRoot.appendingPathComponent("rules/builtin.json").path)
        #expect(file.summary == RuleSet.builtin().summary)
    }

    static let iosDefaults: [(String, String)] = [
        // Another app's default URLSession UA is not MyApp's problem (it was 'inconsistent' before
        // ios-defaults.json became `rules init --app MyApp`); MyApp's own is.
        ("App/1 CFNetwork/1494.0.7 Darwin/23.4.0", "other_app"),
        ("MyApp/51200 CFNetwork/1494.0.7 Darwin/23.4.0", "inconsistent"),
        ("MyApp/5.97.0 (iPhone; iOS 18.1.1; Scale/2.00)", "urlsession"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)", "ambiguous"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
            "inconsistent"
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
            "inconsistent"
        ),
        (LogLines.safari, "browser"),
        (LogLines.webview, "webview"),
        (LogLines.urlsession, "urlsession"),
        ("MyApp/5.12.1 (iPad; iPad13,4; Scale/2.00; iPadOS 17_4_1)", "urlsession"),
        (LogLines.cfnetwork, "inconsistent"),
        (LogLines.curl, "other"),
    ]

    @Test(arguments: iosDefaults)
    func shippedIOSDefaultsFileClassifies(ua: String, expected: String) throws {
        let rules = try RulesFile.load(
            path: RulesFileTests.repoRoot.appendingPathComponent("rules/ios-defaults.json").path)
        #expect(Classifier(rules: rules).explain(Array(ua.utf8)).className == expected)
    }

    @Test func shippedAPIOnlyFileHasAScope() throws {
        let rules = try RulesFile.load(path: RulesFileTests.repoRoot.appendingPathComponent("rules/api-only.json").path)
        #expect(rules.scope?.source == "^/api/")
        #expect(rules.rules.map(\.name) == ["webview", "urlsession", "inconsistent"])
    }
}
