import UAAuditAudit

/// The condition of an `if (…)` block, parsed as nginx's rewrite module parses it.
///
/// The words between `if` and `{` lose their `(` and `)` (as separate words or glued to the
/// first and last one); then `$var` alone (false when empty or "0"), `$var = text`,
/// `$var != text`, `$var ~ regex`, `$var ~* regex`, `$var !~ regex`, `$var !~* regex`; the
/// file tests (`-f`, `-d`, `-e`, `-x` and their `!`) do not depend on the UA.
enum NginxCondition: Sendable {
    case truthy(variable: String)
    case equals(variable: String, text: String, negated: Bool)
    case regex(variable: String, pattern: Pattern?, source: String, negated: Bool, problem: String?)
    /// A condition that does not read a variable (a file test) or that nginx would refuse.
    case other(String)

    /// The words of an `if` directive between its parentheses.
    static func inside(_ words: [String]) -> [String] {
        var words = Array(words.dropFirst())
        if words.first == "(" {
            words.removeFirst()
        } else if let first = words.first, first.hasPrefix("(") {
            words[0] = String(first.dropFirst())
        }
        if words.last == ")" {
            words.removeLast()
        } else if let last = words.last, last.hasSuffix(")") {
            words[words.count - 1] = String(last.dropLast())
        }
        return words
    }

    init(words: [String]) {
        let words = Self.inside(words)
        guard let left = words.first, left.hasPrefix("$"), left.count > 1 else {
            self = .other(words.joined(separator: " "))
            return
        }
        let variable = NginxMap.lowered(String(left.dropFirst()))
        switch words.count {
        case 1:
            self = .truthy(variable: variable)
        case 3:
            let op = words[1]
            let right = words[2]
            switch op {
            case "=", "!=":
                self = .equals(variable: variable, text: right, negated: op == "!=")
            case "~", "~*", "!~", "!~*":
                let caseless = op.hasSuffix("*")
                do {
                    let pattern = try Pattern(right, linear: false, caseless: caseless)
                    self = .regex(
                        variable: variable, pattern: pattern, source: right, negated: op.hasPrefix("!"), problem: nil)
                } catch {
                    self = .regex(
                        variable: variable, pattern: nil, source: right, negated: op.hasPrefix("!"),
                        problem: "\(error.message) at offset \(error.offset)")
                }
            default:
                self = .other(words.joined(separator: " "))
            }
        default:
            self = .other(words.joined(separator: " "))
        }
    }

    /// The variable the condition reads, if any.
    var variable: String? {
        switch self {
        case .truthy(let name), .equals(let name, _, _), .regex(let name, _, _, _, _): name
        case .other: nil
        }
    }
}
