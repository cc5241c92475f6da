/// A named class with one or more patterns; a UA belongs to the first rule with a matching pattern.
public struct Rule: Sendable {
    public let name: String
    public let patterns: [Pattern]
    /// Why the rule is there (from the rules file), for people reading `classify` output.
    public let comment: String?

    public init(name: String, patterns: [Pattern], comment: String? = nil) {
        self.name = name
        self.patterns = patterns
        self.comment = comment
    }

    /// Compiles `sources` for the rule `name`; a bad pattern names the rule.
    public init(name: String, sources: [String], comment: String? = nil) throws(RulesError) {
        var patterns: [Pattern] = []
        for source in sources {
            do {
                patterns.append(try Pattern(source))
            } catch {
                throw RulesError.badPattern(rule: name, pattern: source, message: error.message, offset: error.offset)
            }
        }
        self.init(name: name, patterns: patterns, comment: comment)
    }
}
