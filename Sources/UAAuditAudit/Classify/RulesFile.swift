import FoundationEssentials
import UAAuditInput

/// The JSON rules file (`--rules FILE`), version 1.
///
///     {
///       "version": 1,
///       "app": "MyApp",
///       "alert_class": "inconsistent",
///       "scope": {"path": "^/api/"},
///       "match_limit": 1000000,
///       "rules": [
///         {"class": "webview", "patterns": ["…"], "comment": "why"},
///         …
///       ],
///       "examples": [{"ua": "MyApp/1.2.3 (iPhone; iOS 17.4.1; Scale/3.00)", "class": "urlsession"}, …]
///     }
///
/// `app` (the name the app puts in its own UA) lets reports warn when that app's UAs fall into
/// `other`; `examples` are checked every time the file is loaded.
package struct RulesFile: Codable, Equatable, Sendable {
    struct RuleEntry: Codable, Equatable, Sendable {
        var `class`: String
        var patterns: [String]
        var comment: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case `class`, patterns, comment }
    }

    struct ScopeEntry: Codable, Equatable, Sendable {
        var path: String
        var comment: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case path, comment }
    }

    /// A UA and the class the file's rules must give it.
    struct ExampleEntry: Codable, Equatable, Sendable {
        var ua: String
        var `class`: String
        var comment: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case ua, `class`, comment }
    }

    var version: Int?
    var alertClass: String?
    var scope: ScopeEntry?
    var matchLimit: UInt32?
    var heapLimitKiB: UInt32?
    var comment: String?
    var app: String?
    var rules: [RuleEntry]
    var examples: [ExampleEntry]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, scope, rules, comment, app, examples
        case alertClass = "alert_class"
        case matchLimit = "match_limit"
        case heapLimitKiB = "heap_limit_kib"
    }

    /// Reads and compiles the rules file at `path`, and checks its examples unless told not to
    /// (`rules test` lists the failing ones instead).
    package static func load(path: String, checkingExamples: Bool = true) throws(RulesError) -> RuleSet {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.readAll(path: path, limit: 4 << 20)
        } catch {
            throw RulesError.unreadable(path: path, reason: error.reason)
        }
        return checkingExamples ? try parse(bytes, path: path) : try decode(bytes, path: path).compile(path: path)
    }

    /// Compiles rules-file JSON (`path` names it in messages) and checks its examples.
    package static func parse(_ bytes: [UInt8], path: String) throws(RulesError) -> RuleSet {
        let rules = try decode(bytes, path: path).compile(path: path)
        if let failure = rules.failingExamples().first { throw RulesError.failingExample(path: path, failure) }
        return rules
    }

    /// Decodes rules-file JSON without compiling it.
    package static func decode(_ bytes: [UInt8], path: String) throws(RulesError) -> RulesFile {
        // One parse: for what the decoder does not see, for where JSON that is none breaks, and
        // to decode from.
        var duplicate: String?
        let json: JSONValue
        do throws(JSONValue.SyntaxError) {
            json = try JSONValue.parse(bytes, firstDuplicate: &duplicate)
        } catch {
            throw RulesError.invalidJSON(path: path, message: "not JSON: " + JSONErrors.describe(error, in: bytes))
        }
        // JSONDecoder keeps one of two equal keys in silence: the other rule would be lost.
        if let duplicate { throw RulesError.invalidJSON(path: path, message: DuplicateKeys.message(duplicate)) }
        // A mistyped key ('alert_clas') would otherwise be dropped and its default used.
        if let unknown = ConfigKeys.rulesFile.firstUnknown(in: json) {
            throw RulesError.invalidJSON(path: path, message: unknown.description)
        }
        do {
            return try JSONValueDecoder.decode(RulesFile.self, from: json)
        } catch {
            throw RulesError.invalidJSON(path: path, message: JSONErrors.describe(error))
        }
    }

    /// Compiles the file's rules; examples are carried, not checked.
    package func compile(path: String) throws(RulesError) -> RuleSet {
        let file = self
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
        let maximum = MatchLimits.maximum
        if let m = file.matchLimit, m > maximum.matchLimit {
            throw RulesError.limitTooHigh(path: path, key: "match_limit", value: m, maximum: maximum.matchLimit)
        }
        if let h = file.heapLimitKiB, h > maximum.heapLimitKiB {
            throw RulesError.limitTooHigh(path: path, key: "heap_limit_kib", value: h, maximum: maximum.heapLimitKiB)
        }
        if let m = file.matchLimit { limits.matchLimit = max(m, 1) }
        if let h = file.heapLimitKiB { limits.heapLimitKiB = max(h, 1) }
        if let app = file.app, app.isEmpty || app.utf8.contains(where: { $0 < 0x20 }) {
            throw RulesError.badApp(path: path, app: app)
        }
        let examples = (file.examples ?? []).map { RuleExample(ua: Array($0.ua.utf8), className: $0.class) }
        for example in examples where !RuleSet.classNames(of: rules.map(\.name)).contains(example.className) {
            throw RulesError.unknownExampleClass(path: path, ua: example.text, name: example.className)
        }
        return try RuleSet(
            rules: rules, alertClass: file.alertClass ?? "inconsistent", scope: scope, limits: limits, app: file.app,
            examples: examples)
    }
}
