import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RuleSetTests {
    static let table: [(ua: String, expected: String)] = [
        (LogLines.webview, "webview"),
        (LogLines.urlsession, "urlsession"),
        (LogLines.cfnetwork, "inconsistent"),
        (LogLines.safari, "inconsistent"),
        (LogLines.curl, "other"),
        ("", "missing"),
        ("-", "missing"),
        // The urlsession pattern needs ')' right after 'iOS x_y'.
        ("MyApp/5.12.0 (iPhone; iPhone15,3; iOS 17_4; Scale/3.00)", "other"),
        // Three-part iOS versions never match the built-in patterns.
        ("MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4_1)", "other"),
        // iOS's real default URLSession UA is 'other' under the built-in rules.
        ("MyApp/51200 CFNetwork/1494.0.7 Darwin/23.4.0", "other"),
        (
            "Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
            "other"
        ),
        ("MyApp/5.12.1 (iPhone; 中文; iOS 17_4)", "urlsession"),
    ]

    @Test(arguments: table)
    func builtinClassifies(ua: String, expected: String) {
        let classifier = Classifier(rules: RuleSet.builtin())
        #expect(classifier.explain(Array(ua.utf8)).className == expected)
    }

    @Test func orderMattersWebviewAlsoMatchesURLSessionPattern() throws {
        let urlsessionOnly = try RuleSet(
            rules: [try Rule(name: "urlsession", sources: [RuleSet.builtinSources[1].pattern])],
            alertClass: "urlsession")
        #expect(Classifier(rules: urlsessionOnly).explain(Array(LogLines.webview.utf8)).className == "urlsession")
        let builtin = Classifier(rules: RuleSet.builtin()).explain(Array(LogLines.webview.utf8))
        #expect(builtin.className == "webview")
        #expect(builtin.pattern == RuleSet.builtinSources[0].pattern)
    }

    @Test func classIndexesPutOtherAndMissingLast() {
        let rules = RuleSet.builtin()
        #expect(rules.classNames == ["webview", "urlsession", "inconsistent", "other", "missing"])
        #expect(rules.alertIndex == 2)
        #expect(rules.otherIndex == 3)
        #expect(rules.missingIndex == 4)
    }

    @Test func catastrophicPatternHitsTheMatchLimitAndIsAnError() throws {
        let rules = try RuleSet(
            rules: [try Rule(name: "evil", sources: ["(a+)+$"])], alertClass: "evil",
            limits: MatchLimits(matchLimit: 10_000, heapLimitKiB: 1_000))
        let classifier = Classifier(rules: rules)
        let ua = Array(String(repeating: "a", count: 40).utf8) + [0x62]
        let explanation = classifier.explain(ua)
        #expect(explanation.className == "errors")
        #expect(explanation.failure == "match limit exceeded")
        let index = ua.withUnsafeBytes { classifier.classify($0) }
        #expect(index == Classifier.failed)
        // A short subject still finishes within the limit.
        #expect(classifier.explain(Array("aaab".utf8)).className == "other")
        #expect(classifier.explain(Array("aaaa".utf8)).className == "evil")
    }

    @Test func badPatternNamesRulePatternMessageAndOffset() {
        #expect(
            throws: RulesError.badPattern(
                rule: "broken", pattern: "abc(", message: "missing closing parenthesis", offset: 4)
        ) {
            _ = try Rule(name: "broken", sources: ["abc("])
        }
        let message = RulesError.badPattern(
            rule: "broken", pattern: "abc(", message: "missing closing parenthesis", offset: 4
        )
        .description
        #expect(message == "rule 'broken': pattern abc( does not compile: missing closing parenthesis at offset 4")
    }

    @Test func ruleSetRejectsDuplicateReservedAndUnknownAlertClass() throws {
        let a = try Rule(name: "a", sources: ["x"])
        #expect(throws: RulesError.duplicateClass(name: "a")) { _ = try RuleSet(rules: [a, a], alertClass: "a") }
        let other = try Rule(name: "other", sources: ["x"])
        #expect(throws: RulesError.reservedClass(name: "other")) { _ = try RuleSet(rules: [other]) }
        #expect(throws: RulesError.unknownAlertClass(name: "nope", classes: ["a", "other", "missing"])) {
            _ = try RuleSet(rules: [a], alertClass: "nope")
        }
        let spaced = try Rule(name: "has space", sources: ["x"])
        #expect(throws: RulesError.badClassName(name: "has space")) {
            _ = try RuleSet(rules: [spaced], alertClass: "other")
        }
    }

    @Test func scopeMatchesPathsOnly() throws {
        let rules = try RuleSet(rules: RuleSet.builtin().rules, scope: try Pattern("^/api/"))
        let classifier = Classifier(rules: rules)
        func inScope(_ path: String?) -> Bool {
            guard let path else { return classifier.inScope(path: nil) }
            return Array(path.utf8).withUnsafeBytes { classifier.inScope(path: $0) }
        }
        #expect(inScope("/api/v2/me"))
        #expect(!inScope("/static/app.js"))
        #expect(!inScope(nil))
        #expect(Classifier(rules: RuleSet.builtin()).inScope(path: nil))
    }
}
