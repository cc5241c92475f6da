/// The ordered rules, the alert class, the optional scope and the match limits of an audit.
///
/// Class indexes: the rules in order, then `other`, then `missing`.
package struct RuleSet: Sendable {
    static let reservedNames: Set<String> = ["other", "missing", "errors", "out_of_scope"]
    /// The most rules a set may have. A class index is one byte on the hot path (the rules,
    /// `other` and `missing`, with 255 kept for "the pattern could not finish"), so the bound
    /// is checked here, where a rules file is read, never assumed later.
    static let maxRules = 250

    package let rules: [Rule]
    package let alertClass: String
    /// Only requests whose path matches are audited; the rest are counted as out of scope.
    package let scope: Pattern?
    let limits: MatchLimits
    /// The name the operator's app puts in its own UA (the rules file's `app`), for coverage warnings.
    package let app: String?
    /// UAs with the class the rules must give them (the rules file's `examples`).
    package let examples: [RuleExample]

    /// All class names, in index order (``classNames(of:)``).
    package let classNames: [String]

    /// The classes of rules named `rules`, in index order: the rules', then `other` (no rule
    /// matched) and `missing` (no UA). Reports, merge and every table list them so.
    package static func classNames(of rules: [String]) -> [String] { rules + ["other", "missing"] }
    let alertIndex: Int

    package var otherIndex: Int { rules.count }
    package var missingIndex: Int { rules.count + 1 }
    package var classCount: Int { rules.count + 2 }

    init(
        rules: [Rule], alertClass: String = "inconsistent", scope: Pattern? = nil,
        limits: MatchLimits = .standard, app: String? = nil, examples: [RuleExample] = []
    ) throws(RulesError) {
        if rules.count > RuleSet.maxRules {
            throw RulesError.tooManyRules(count: rules.count, maximum: RuleSet.maxRules)
        }
        var seen = Set<String>()
        for rule in rules {
            if RuleSet.reservedNames.contains(rule.name) { throw RulesError.reservedClass(name: rule.name) }
            guard RuleSet.isValidName(rule.name) else { throw RulesError.badClassName(name: rule.name) }
            guard seen.insert(rule.name).inserted else { throw RulesError.duplicateClass(name: rule.name) }
            if rule.patterns.isEmpty { throw RulesError.noPatterns(rule: rule.name) }
        }
        let names = RuleSet.classNames(of: rules.map(\.name))
        guard let alertIndex = names.firstIndex(of: alertClass) else {
            throw RulesError.unknownAlertClass(name: alertClass, classes: names)
        }
        self.rules = rules
        self.alertClass = alertClass
        self.scope = scope
        self.limits = limits
        self.app = app
        self.examples = examples
        self.classNames = names
        self.alertIndex = alertIndex
    }

    /// Whether a rules file may name a class `name`: valid and not reserved.
    static func isNameable(_ name: String) -> Bool { isValidName(name) && !reservedNames.contains(name) }

    /// Whether a state or report may count lines under class `name`: one a rules file names, or
    /// `other` or `missing`.
    package static func isCountable(_ name: String) -> Bool { isNameable(name) || classNames(of: []).contains(name) }

    /// Lowercase letters, digits, `_` and `-`, 1 to 32 bytes: the names of classes (reserved
    /// ones too).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32
            && name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D
            }
    }

    /// The rules uaaudit uses when no rules file is given.
    static let builtinSources: [(name: String, pattern: String)] = [
        ("webview", #"MyApp/\d+\.\d+\.\d+ \(iPhone;.*iOS \d+_\d+\).*Safari/\d+\.\d+"#),
        ("urlsession", #"MyApp/\d+\.\d+\.\d+ \(iPhone;.*iOS \d+_\d+\)"#),
        ("inconsistent", #"com\.apple\.CFNetwork|Mozilla/5\.0 \(iPhone; CPU iPhone OS \d+_\d+ like Mac OS X\)"#),
    ]

    package static func builtin() -> RuleSet {
        do {
            let rules = try builtinSources.map { source throws(RulesError) in
                try Rule(name: source.name, sources: [source.pattern])
            }
            return try RuleSet(rules: rules)
        } catch {
            preconditionFailure("the built-in rules do not compile: \(error)")
        }
    }

    /// The examples these rules classify otherwise than they say, in the file's order.
    package func failingExamples() -> [ExampleFailure] {
        let classifier = Classifier(rules: self)
        return examples.compactMap { example in
            let got = classifier.explain(example.ua)
            guard got.className != example.className else { return nil }
            return ExampleFailure(example: example, got: got)
        }
    }
}
