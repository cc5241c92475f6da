import UAAuditAudit
import UAAuditInput

/// What `doctor` found of the operator's app in the logs' last lines, and the rules it would
/// write for it.
package struct AppDiagnosis: Sendable {
    package var sample: AppSample
    /// The app the rules are for: `--app`, else the one that dominates the sample.
    package var chosen: AppDetection.Candidate?
    /// True when the operator named the app (`--app`).
    package var named = false
    /// Where the rules go: beside the config `--write-config` writes, else where the printed
    /// advice puts them.
    package var rulesPath: String
    /// The rules file for `chosen`, or why `rules init` refuses its name.
    package var rules: Result<RulesFile, RulesTemplateError>?

    /// Reads the last `lines` lines of `logs` in `format` and picks the app: `app` when the
    /// operator named it, else the dominant one; `bundles` are added to its own.
    static func examine(
        logs: [String], format: LogFormat, lines: Int, app: String?, bundles: [String], rulesPath: String
    ) -> AppDiagnosis {
        let sample = AppSample.read(paths: logs, format: format, lines: lines)
        var apps = AppDiagnosis(sample: sample, rulesPath: rulesPath)
        if let app {
            // The operator's name wins; what the sample saw of it adds its bundles and token.
            var candidate =
                sample.detection.candidate(named: app)
                ?? AppDetection.Candidate(name: app, requests: 0, shapes: [:], bundles: [], webviewToken: nil)
            candidate.name = app
            for bundle in bundles where !candidate.bundles.contains(bundle) { candidate.bundles.append(bundle) }
            apps.chosen = candidate
            apps.named = true
        } else if var dominant = sample.detection.dominant {
            for bundle in bundles where !dominant.bundles.contains(bundle) { dominant.bundles.append(bundle) }
            apps.chosen = dominant
        }
        if let chosen = apps.chosen {
            do {
                apps.rules = .success(
                    try RulesTemplate(app: chosen.name, bundles: chosen.bundles, webviewToken: chosen.webviewToken)
                        .file())
            } catch {
                apps.rules = .failure(error)
            }
        }
        return apps
    }

    /// The rules to write, when there are any.
    package var rulesFile: RulesFile? {
        if case .success(let file) = rules { return file }
        return nil
    }
}
