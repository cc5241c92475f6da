/// Why a log format could not be compiled or found.
package enum FormatError: Error, Equatable, CustomStringConvertible {
    case invalidVariable(format: String, column: Int)
    case unterminatedBrace(format: String, column: Int)
    case adjacentVariables(first: String, second: String)
    case noTimeVariable(format: String)
    case noUserAgentVariable(format: String)
    case unknownBuiltin(name: String, known: [String])
    case notInConfig(name: String, path: String, found: [String], includes: [String])
    case unreadableConfig(path: String, reason: String)
    case configSyntax(path: String, line: Int, message: String)
    case badEscapeParameter(value: String, path: String, line: Int)
    case nginxConfNeedsName(path: String)

    package var description: String {
        switch self {
        case .invalidVariable(let format, let column):
            return "log format has a '$' with no variable name at column \(column): \(format)"
        case .unterminatedBrace(let format, let column):
            return "log format has '${' with no closing '}' at column \(column): \(format)"
        case .adjacentVariables(let first, let second):
            return "log format has $\(first) immediately followed by $\(second); "
                + "nothing separates them, so their values cannot be told apart"
        case .noTimeVariable(let format):
            return "log format has no $time_local, $time_iso8601 or $msec, so requests cannot be "
                + "counted per hour: \(format)"
        case .noUserAgentVariable(let format):
            return "log format has no $http_user_agent, so there is nothing to audit: \(format)"
        case .unknownBuiltin(let name, let known):
            return "no built-in log format named '\(name)' (built-in: \(known.joined(separator: ", "))); "
                + "use --log-format 'STRING' or --nginx-conf PATH --format NAME"
        case .notInConfig(let name, let path, let found, let includes):
            let list = found.isEmpty ? "none" : found.joined(separator: ", ")
            var message = "\(path) has no log_format named '\(name)' (log_formats found: \(list))"
            if !includes.isEmpty {
                message +=
                    "; its include directives are not followed (\(includes.joined(separator: ", "))): "
                    + "if the log_format is in one of them, give that file to --nginx-conf"
            }
            return message
        case .unreadableConfig(let path, let reason):
            return "cannot read nginx config \(path): \(reason)"
        case .configSyntax(let path, let line, let message):
            return line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)"
        case .nginxConfNeedsName(let path):
            return "which log_format of \(path)? name it (--format NAME, or \"name\" in the config's format)"
        case .badEscapeParameter(let value, let path, let line):
            return "\(path):\(line): unknown escape parameter '\(value)' (expected default, json or none)"
        }
    }
}
