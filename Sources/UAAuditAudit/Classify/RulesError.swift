/// Why a rule set could not be built.
package enum RulesError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalidJSON(path: String, message: String)
    case unsupportedVersion(path: String, version: Int)
    case noRules(path: String)
    case noPatterns(rule: String)
    case duplicateClass(name: String)
    case reservedClass(name: String)
    case badClassName(name: String)
    case badPattern(rule: String, pattern: String, message: String, offset: Int)
    case unknownAlertClass(name: String, classes: [String])
    case tooManyRules(count: Int, maximum: Int)
    case badApp(path: String, app: String)
    case unknownExampleClass(path: String, ua: String, name: String)
    case failingExample(path: String, ExampleFailure)
    case limitTooHigh(path: String, key: String, value: UInt32, maximum: UInt32)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read rules file \(path): \(reason)"
        case .invalidJSON(let path, let message):
            return "rules file \(path) is not valid: \(message)"
        case .unsupportedVersion(let path, let version):
            return "rules file \(path) has version \(version); this uaaudit reads version 1"
        case .noRules(let path):
            return "rules file \(path) has no rules; add at least one {\"class\": …, \"patterns\": […]}"
        case .noPatterns(let rule):
            return "rule '\(rule)' has no patterns"
        case .duplicateClass(let name):
            return "class '\(name)' is defined by two rules; give each rule its own class"
        case .reservedClass(let name):
            return "class name '\(name)' is reserved (other, missing, errors, out_of_scope); rename the rule"
        case .badClassName(let name):
            return "class name '\(name)' must be 1 to 32 characters of a-z, 0-9, '_' or '-'"
        case .badPattern(let rule, let pattern, let message, let offset):
            return "rule '\(rule)': pattern \(pattern) does not compile: \(message) at offset \(offset)"
        case .unknownAlertClass(let name, let classes):
            return "alert class '\(name)' is not one of the classes (\(classes.joined(separator: ", ")))"
        case .tooManyRules(let count, let maximum):
            return
                "the rules file has \(count) rules; at most \(maximum) are allowed (join patterns into fewer classes)"
        case .badApp(let path, let app):
            return "rules file \(path): app '\(app)' must be a non-empty name without control characters"
        case .unknownExampleClass(let path, let ua, let name):
            return "rules file \(path): example '\(ua)' names class '\(name)', which no rule defines"
        case .failingExample(let path, let failure):
            return "rules file \(path): \(failure.description)"
        case .limitTooHigh(let path, let key, let value, let maximum):
            return "rules file \(path): \(key) \(value) is over the maximum \(maximum) (the default; "
                + "a higher limit only lets a backtracking pattern spend longer on each UA): lower it or leave it out"
        }
    }
}
