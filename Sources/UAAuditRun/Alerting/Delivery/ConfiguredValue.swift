import FoundationEssentials
import UAAuditInput

/// Where a channel's URL or secret comes from: the configuration itself, an environment
/// variable, or a file (so that it need not sit in a crontab or a config file).
///
/// Its description (and its mirror) names the variable or the file, never a value.
package enum ConfiguredValue: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    case literal(String)
    case environment(String)
    case file(String)

    /// Secret files are small; a bigger file is the wrong file.
    static let fileLimit = 64 << 10

    /// The value, with surrounding white space (a file's final newline) removed.
    func resolve(environment: [String: String], what: String) throws(AlertError) -> String {
        switch self {
        case .literal(let value):
            return value.trimmed(newlines: true)
        case .environment(let name):
            let value = (environment[name] ?? "").trimmed(newlines: true)
            if value.isEmpty { throw AlertError.environmentUnset(name: name, what: what) }
            return value
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try FileBytes.readAll(path: path, limit: ConfiguredValue.fileLimit)
            } catch {
                throw AlertError.unreadableFile(path: path, what: what, reason: error.reason)
            }
            let value = String(decoding: bytes, as: UTF8.self).trimmed(newlines: true)
            if value.isEmpty { throw AlertError.emptyFile(path: path, what: what) }
            return value
        }
    }

    package var description: String {
        switch self {
        case .literal: return "(given inline)"
        case .environment(let name): return "$\(name)"
        case .file(let path): return "file \(path)"
        }
    }

    /// `dump` and debuggers see the description too, not the value.
    package var customMirror: Mirror { Mirror(self, children: ["source": description]) }
}
