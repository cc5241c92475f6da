/// Why a log format could not be compiled or found.
public enum FormatError: Error, Equatable, CustomStringConvertible {
    case invalidVariable(format: String, column: Int)
    case unterminatedBrace(format: String, column: Int)
    case adjacentVariables(first: String, second: String)
    case noTimeVariable(format: String)
    case noUserAgentVariable(format: String)
    case unknownBuiltin(name: String, known: [String])
    case notInConfig(name: String, path: String, found: [String])
    case unreadableConfig(path: String, reason: String)
    case configSyntax(path: String, line: Int, message: String)
    case badEscapeParameter(value: String, path: String, line: Int)

    public var description: String {
        switch self {
        case let .invalidVariable(format, column):
            return "log format has a '$' with no variable name at column \(column): \(format)"
        case let .unterminatedBrace(format, column):
            return "log format has '${' with no closing '}' at column \(column): \(format)"
        case let .adjacentVariables(first, second):
            return "log format has $\(first) immediately followed by $\(second); "
                + "nothing separates them, so their values cannot be told apart"
        case let .noTimeVariable(format):
            return "log format has no $time_local, $time_iso8601 or $msec, so requests cannot be "
                + "counted per hour: \(format)"
        case let .noUserAgentVariable(format):
            return "log format has no $http_user_agent, so there is nothing to audit: \(format)"
        case let .unknownBuiltin(name, known):
            return "no built-in log format named '\(name)' (built-in: \(known.joined(separator: ", "))); "
                + "use --log-format 'STRING' or --nginx-conf PATH --format NAME"
        case let .notInConfig(name, path, found):
            let list = found.isEmpty ? "none" : found.joined(separator: ", ")
            return "\(path) has no log_format named '\(name)' (log_formats found: \(list))"
        case let .unreadableConfig(path, reason):
            return "cannot read nginx config \(path): \(reason)"
        case let .configSyntax(path, line, message):
            return "\(path):\(line): \(message)"
        case let .badEscapeParameter(value, path, line):
            return "\(path):\(line): unknown escape parameter '\(value)' (expected default, json or none)"
        }
    }
}
