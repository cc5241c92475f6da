import UAAuditInput

extension ConfigKeys {
    /// The keys of a rules file (``RulesFile``).
    static let rulesFile: ConfigKeys = {
        var top = keys(RulesFile.CodingKeys.allCases.map(\.rawValue))
        top[RulesFile.CodingKeys.scope.rawValue] = .object(
            keys(RulesFile.ScopeEntry.CodingKeys.allCases.map(\.rawValue)))
        top[RulesFile.CodingKeys.rules.rawValue] = .list(
            .object(keys(RulesFile.RuleEntry.CodingKeys.allCases.map(\.rawValue))))
        top[RulesFile.CodingKeys.examples.rawValue] = .list(
            .object(keys(RulesFile.ExampleEntry.CodingKeys.allCases.map(\.rawValue))))
        return .object(top)
    }()
}
