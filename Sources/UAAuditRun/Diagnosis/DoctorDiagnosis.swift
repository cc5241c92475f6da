import UAAuditAudit
import UAAuditInput

/// Everything `doctor` finds: the access logs and the format to audit, the app in their
/// traffic, and what nginx's own UA rules do to it. The CLI renders it and picks the exit
/// status from ``FormatDiagnosis/verdict``.
package struct DoctorDiagnosis: Sendable {
    package var formats: FormatDiagnosis
    /// The apps in the chosen logs' last lines and the rules for the operator's (nil when no
    /// format fits, so nothing could be read, or when neither a sample nor `--app` was asked for).
    package var apps: AppDiagnosis?
    package var nginxRules: NginxRulesDiagnosis

    /// Checks `tree`'s access logs (their last `lastLines` lines), reads the chosen logs' last
    /// `sampleLines` lines for the apps in them (`app` and `bundles`: what the operator said of
    /// theirs; its rules would go to `rulesPath`), and tries the app's UAs against nginx's own
    /// UA rules: those of `givenRules`, else the ones doctor would write.
    package static func diagnose(
        _ tree: NginxConfigTree, lastLines: Int, sampleLines: Int, app: String?, bundles: [String],
        rulesPath: String, givenRules: (rules: RuleSet, source: String)?
    ) -> DoctorDiagnosis {
        let formats = FormatDiagnosis.examine(tree, lastLines: lastLines)
        var apps: AppDiagnosis?
        if let chosen = formats.chosen, let format = try? chosen.definition.compile(), sampleLines > 0 || app != nil {
            apps = AppDiagnosis.examine(
                logs: chosen.logs, format: format, lines: sampleLines, app: app, bundles: bundles,
                rulesPath: rulesPath)
        }
        let sample = apps?.sample
        let nginxRules: NginxRulesDiagnosis
        if let (rules, source) = givenRules
            ?? apps?.rulesFile.flatMap({ file in
                (try? file.compile(path: apps?.rulesPath ?? "rules.json")).map { ($0, "the rules doctor writes") }
            })
        {
            nginxRules = NginxRulesDiagnosis.examine(
                tree: tree, rules: rules, rulesSource: source, sample: sampleLines > 0 ? sample : nil)
        } else {
            // No app rules: the UA rules are counted, and the way to try them said.
            nginxRules = NginxRulesDiagnosis.examine(
                tree: tree, rules: RuleSet.builtin(), rulesSource: "", sample: nil, tryUAs: false)
        }
        return DoctorDiagnosis(formats: formats, apps: apps, nginxRules: nginxRules)
    }

    /// The uaaudit config for the chosen logs; nil when no format fits. Its files go in
    /// `stateDir` and `prom`; its rules are `givenRules` (an absolute path), else those doctor
    /// writes for the app, else none (the built-in example rules).
    package func runConfig(stateDir: String, prom: String, givenRules: String?) -> RunConfig? {
        guard let chosen = formats.chosen else { return nil }
        var config = RunConfig()
        config.version = 1
        config.logs = chosen.logs
        let definition = chosen.definition
        if definition.name == "combined", definition.place == nil {
            config.format = RunConfig.FormatChoice(name: "combined")
        } else if definition.name == "ua_log", definition.string == BuiltinFormats.uaLog, definition.escape == .default
        {
            config.format = RunConfig.FormatChoice(name: "ua_log")
        } else {
            config.format = RunConfig.FormatChoice(
                name: definition.name, string: definition.string,
                escape: definition.escape == .default ? nil : definition.escape)
        }
        if let givenRules {
            config.rules = givenRules
        } else if let apps, apps.rulesFile != nil {
            config.rules = apps.rulesPath
        }
        config.state = stateDir + "/state.json"
        config.report = stateDir + "/report.json"
        config.html = stateDir + "/report.html"
        config.lock = stateDir + "/uaaudit.lock"
        config.prom = prom
        let needs = FormatNeeds(formatString: definition.string)
        var insight = RunConfig.InsightChoice()
        insight.clientKey = needs.clientKey ?? "none"
        config.insight = insight
        return config
    }
}
