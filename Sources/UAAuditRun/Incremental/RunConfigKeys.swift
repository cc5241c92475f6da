import UAAuditInput

extension ConfigKeys {
    /// The keys of `uaaudit run`'s config (``RunConfig``).
    package static let runConfig: ConfigKeys = {
        var top = [String: ConfigKeys]()
        for key in RunConfig.CodingKeys.allCases { top[key.rawValue] = .value }
        top[RunConfig.CodingKeys.format.rawValue] = .object(
            keys(RunConfig.FormatChoice.CodingKeys.allCases.map(\.rawValue)))
        top[RunConfig.CodingKeys.insight.rawValue] = .object(
            keys(RunConfig.InsightChoice.CodingKeys.allCases.map(\.rawValue)))
        top[RunConfig.CodingKeys.alerts.rawValue] = .list(
            .object(keys(AlertChannel.CodingKeys.allCases.map(\.rawValue))))
        return .object(top)
    }()
}
