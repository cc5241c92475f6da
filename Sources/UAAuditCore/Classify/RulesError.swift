/// Why a rule set could not be built.
public enum RulesError: Error, Equatable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "cannot read rules file \(path): \(reason)"
        case let .invalidJSON(path, message):
            return "rules file \(path) is not valid: \(message)"
        case let .unsupportedVersion(path, version):
            return "rules file \(path) has version \(version); this uaaudit reads version 1"
        case let .noRules(path):
            return "rules file \(path) has no rules; add at least one {\"class\": …, \"patterns\": […]}"
        case let .noPatterns(rule):
            return "rule '\(rule)' has no patterns"
        case let .duplicateClass(name):
            return "class '\(name)' is defined by two rules; give each rule its own class"
        case let .reservedClass(name):
            return "class name '\(name)' is reserved (other, missing, errors, out_of_scope); rename the rule"
        case let .badClassName(name):
            return "class name '\(name)' must be 1 to 32 characters of a-z, 0-9, '_' or '-'"
        case let .badPattern(rule, pattern, message, offset):
            return "rule '\(rule)': pattern \(pattern) does not compile: \(message) at offset \(offset)"
        case let .unknownAlertClass(name, classes):
            return "alert class '\(name)' is not one of the classes (\(classes.joined(separator: ", ")))"
        }
    }
}
