/// What `uaaudit rules lint` finds in a rules file: examples that fail, rules shadowed by an
/// earlier rule, patterns that none of their rule's examples exercise, and unanchored patterns
/// that start with `.*` (slow, and a sign the pattern says less than it means).
package enum RulesLint {
    package struct Finding: Equatable, Sendable, CustomStringConvertible {
        enum Kind: String, Sendable {
            case failingExample = "failing example"
            case shadowed
            case untested = "untested pattern"
            case leadingWildcard = "leading .*"
            case noExamples = "no examples"
        }

        let kind: Kind
        let rule: String
        let message: String

        package var description: String { "\(kind.rawValue): rule '\(rule)': \(message)" }
    }

    package static func findings(_ rules: RuleSet) -> [Finding] {
        let classifier = Classifier(rules: rules)
        var out: [Finding] = []
        let index = Dictionary(uniqueKeysWithValues: rules.classNames.enumerated().map { ($1, $0) })
        for failure in rules.failingExamples() {
            let wanted = index[failure.example.className] ?? Int.max
            let got = index[failure.got.className] ?? Int.max
            if wanted < rules.rules.count, got < wanted {
                out.append(
                    Finding(
                        kind: .shadowed, rule: failure.example.className,
                        message: "earlier rule '\(failure.got.className)' takes its example '\(failure.example.text)' "
                            + "(pattern \(failure.got.pattern ?? ""))"))
            } else {
                out.append(Finding(kind: .failingExample, rule: failure.got.className, message: failure.description))
            }
        }
        for rule in rules.rules {
            let examples = rules.examples.filter { $0.className == rule.name }
            if examples.isEmpty {
                out.append(Finding(kind: .noExamples, rule: rule.name, message: "no example has class '\(rule.name)'"))
            }
            for pattern in rule.patterns {
                if !examples.isEmpty, !examples.contains(where: { classifier.matches(pattern, $0.ua) }) {
                    out.append(
                        Finding(
                            kind: .untested, rule: rule.name,
                            message: "pattern \(pattern.source) matches none of the rule's \(examples.count) examples"))
                }
                if startsWithWildcard(pattern.source) {
                    out.append(
                        Finding(
                            kind: .leadingWildcard, rule: rule.name,
                            message: "pattern \(pattern.source) starts with .* (patterns are unanchored already; "
                                + "drop it, or anchor with ^)"))
                }
            }
        }
        return out
    }

    /// True when an unanchored pattern starts with `.*` (after any leading `(?i)`-style option groups).
    static func startsWithWildcard(_ source: String) -> Bool {
        var s = Substring(source)
        while s.hasPrefix("(?"), let close = s.firstIndex(of: ")"),
            s[s.index(s.startIndex, offsetBy: 2)..<close].allSatisfy({ $0.isLetter || $0 == "-" })
        {
            s = s[s.index(after: close)...]
        }
        return s.hasPrefix(".*") || s.hasPrefix(".+")
    }
}
