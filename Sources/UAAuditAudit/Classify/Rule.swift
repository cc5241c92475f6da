/// A named class with one or more patterns; a UA belongs to the first rule with a matching pattern.
package struct Rule: Sendable {
    package let name: String
    package let patterns: [Pattern]
    /// Why the rule is there (from the rules file), for people reading `classify` output.
    let comment: String?

    init(name: String, patterns: [Pattern], comment: String? = nil) {
        self.name = name
        self.patterns = patterns
        self.comment = comment
    }

    /// Compiles `sources` for the rule `name`; a bad pattern names the rule.
    init(name: String, sources: [String], comment: String? = nil) throws(RulesError) {
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
