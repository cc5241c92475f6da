import UAAuditAudit

/// The rule set as a report records it: merged reports must agree on it.
public struct RulesSummary: Codable, Equatable, Sendable {
    public var order: [String]
    public var alertClass: String
    public var patterns: [String: [String]]
    public var scope: String?
    /// The rules file's `app`, when it names one.
    public var app: String? = nil

    enum CodingKeys: String, CodingKey {
        case order, patterns, scope, app
        case alertClass = "alert_class"
    }
}

extension RulesSummary {
    /// The report's classes in order (``RuleSet/classNames(of:)``).
    var classNames: [String] { RuleSet.classNames(of: order) }
}

extension Report {
    /// The classes the report lists, in order: the rules' (``RulesSummary/classNames``), then
    /// any other class its hours counted lines of (a `run` whose rules lost a class since it
    /// counted an hour keeps those lines under that class), by name.
    package var classNames: [String] {
        PrometheusMetrics.counted(rules.classNames, totals.classes)
    }
}

extension RuleSet {
    /// A description of the rule set that reports carry, so that merged reports can check they agree.
    package var summary: RulesSummary {
        RulesSummary(
            order: rules.map(\.name), alertClass: alertClass,
            patterns: Dictionary(uniqueKeysWithValues: rules.map { ($0.name, $0.patterns.map(\.source)) }),
            scope: scope?.source, app: app)
    }
}
