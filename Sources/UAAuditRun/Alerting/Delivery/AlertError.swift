/// Why an alert channel cannot be used as configured. Messages never contain a secret.
package enum AlertError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an http or https URL with a host; `shown` is already redacted.
    case badURL(shown: String)
    /// No kind was given and the host does not tell; `shown` is already redacted.
    case kindNotInferred(shown: String)
    case unknownKind(String)
    case environmentUnset(name: String, what: String)
    case unreadableFile(path: String, what: String, reason: String)
    case emptyFile(path: String, what: String)
    case secretNotSupported(kind: ChannelKind)
    case optionNotSupported(option: String, kind: ChannelKind, only: String)
    case badOption(option: String, value: String, expected: String)
    /// A channel in a config file is malformed; `path` is where (`alerts[1]`).
    case invalidChannel(path: String, message: String)

    package var description: String {
        switch self {
        case .badURL(let shown):
            return
                "webhook URL \(shown) is not an http:// or https:// URL with a host (a port from 1 to 65535, no spaces or control characters)"
        case .kindNotInferred(let shown):
            return "cannot tell which service \(shown) is; give its kind (\(ChannelKind.list))"
        case .unknownKind(let kind):
            return "unknown webhook kind '\(kind)'; kinds are \(ChannelKind.list)"
        case .environmentUnset(let name, let what):
            return "environment variable \(name) (\(what)) is not set or empty"
        case .unreadableFile(let path, let what, let reason):
            return "cannot read \(what) from \(path): \(reason)"
        case .emptyFile(let path, let what):
            return "\(path) (\(what)) is empty"
        case .secretNotSupported(let kind):
            return "a \(kind.rawValue) webhook takes no signing secret (only dingtalk and feishu do)"
        case .optionNotSupported(let option, let kind, let only):
            return "\(option) does not apply to a \(kind.rawValue) webhook (only to \(only))"
        case .badOption(let option, let value, let expected):
            return "\(option) takes \(expected), not '\(value)'"
        case .invalidChannel(let path, let message):
            return "alert channel \(path): \(message)"
        }
    }
}
