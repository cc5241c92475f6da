import Foundation

/// The JSON rules file (`--rules FILE`), version 1.
///
///     {
///       "version": 1,
///       "alert_class": "inconsistent",
///       "scope": {"path": "^/api/"},
///       "match_limit": 1000000,
///       "rules": [
///         {"class": "webview", "patterns": ["…"], "comment": "why"},
///         …
///       ]
///     }
public struct RulesFile: Codable, Equatable, Sendable {
    public struct RuleEntry: Codable, Equatable, Sendable {
        public var `class`: String
        public var patterns: [String]
        public var comment: String?
    }

    public struct ScopeEntry: Codable, Equatable, Sendable {
        public var path: String
        public var comment: String?
    }

    public var version: Int?
    public var alertClass: String?
    public var scope: ScopeEntry?
    public var matchLimit: UInt32?
    public var heapLimitKiB: UInt32?
    public var comment: String?
    public var rules: [RuleEntry]

    enum CodingKeys: String, CodingKey {
        case version, scope, rules, comment
        case alertClass = "alert_class"
        case matchLimit = "match_limit"
        case heapLimitKiB = "heap_limit_kib"
    }

    /// Reads and compiles the rules file at `path`.
    public static func load(path: String) throws(RulesError) -> RuleSet {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.readAll(path: path, limit: 4 << 20)
        } catch {
            throw RulesError.unreadable(path: path, reason: error.reason)
        }
        return try parse(bytes, path: path)
    }

    /// Compiles rules-file JSON (`path` names it in messages).
    public static func parse(_ bytes: [UInt8], path: String) throws(RulesError) -> RuleSet {
        let file: RulesFile
        do {
            file = try JSONDecoder().decode(RulesFile.self, from: Data(bytes))
        } catch {
            throw RulesError.invalidJSON(path: path, message: JSONErrors.describe(error, in: bytes))
        }
        if let version = file.version, version != 1 {
            throw RulesError.unsupportedVersion(path: path, version: version)
        }
        if file.rules.isEmpty { throw RulesError.noRules(path: path) }
        var rules: [Rule] = []
        for entry in file.rules {
            rules.append(try Rule(name: entry.class, sources: entry.patterns, comment: entry.comment))
        }
        var scope: Pattern?
        if let entry = file.scope {
            do {
                scope = try Pattern(entry.path)
            } catch {
                throw RulesError.badPattern(
                    rule: "scope", pattern: entry.path, message: error.message, offset: error.offset)
            }
        }
        var limits = MatchLimits.standard
        if let m = file.matchLimit { limits.matchLimit = max(m, 1) }
        if let h = file.heapLimitKiB { limits.heapLimitKiB = max(h, 1) }
        return try RuleSet(rules: rules, alertClass: file.alertClass ?? "inconsistent", scope: scope, limits: limits)
    }
}
