import UAAuditAudit
import UAAuditInput

/// What a report audited with the built-in example rules says about them, so that an
/// operator's app that no rule knows is never a silent 0%.
///
/// The built-in rules are examples for an app called `MyApp`. When a report made with them holds
/// an app-shaped UA family of another app among those classed `other` (``AppDetection`` on the
/// hours' coverage lists), or when the app classes counted nothing, the notice names the largest
/// such app and the `rules init` command for it. Traffic of MyApp itself (the project's samples)
/// gets no notice: the examples are its rules.
package enum ExampleRulesNotice {
    /// The app the built-in rules are written for.
    static let exampleApp = "MyApp"
    /// The classes of the example app's own traffic.
    static let appClasses = ["webview", "urlsession"]

    /// True when `rules` are the built-in example rules.
    static func isExample(_ rules: RulesSummary) -> Bool {
        let builtin = RuleSet.builtin().summary
        return rules.order == builtin.order && rules.patterns == builtin.patterns && rules.app == nil
            && rules.scope == nil
    }

    /// What to say: a sentence, and the command to run (printed on a line of its own).
    package struct Notice: Equatable, Sendable {
        package var message: String
        package var command: String
        /// The app found in the traffic, if any.
        package var app: String?
    }

    /// The notice, or nil when the rules are not the examples or the traffic is the example app's.
    /// `rulesOut` is the file the suggested `rules init` writes.
    package static func notice(_ report: Report, rulesOut: String) -> Notice? {
        guard isExample(report.rules), report.totals.requests > 0 else { return nil }
        let requests = report.totals.requests
        let families = Coverage.overall(report.hours).families
        let detection = AppDetection.detect(families.map { (ua: $0.family, count: $0.count) }, requests: requests)
        let foreign = detection.candidates.first { $0.name.lowercased() != exampleApp.lowercased() }
        let appRequests = appClasses.reduce(Int64(0)) { $0 + (report.totals.classes[$1] ?? 0) }
        let head =
            "the rules in use are the built-in example rules, written for an app called \(exampleApp)"
        let generic = "uaaudit rules init --app NAME --out \(ShellWord.quoted(rulesOut))"
        guard var app = foreign else {
            guard appRequests == 0 else { return nil }
            return Notice(
                message: head
                    + ": they classed none of these \(requests) request\(requests == 1 ? "" : "s") as an app's own (webview or "
                    + "urlsession). Write your app's rules (NAME: what it puts in its UA; uaaudit doctor finds it "
                    + "in your log) and give them with --rules:",
                command: generic)
        }
        app.bundles.removeAll { $0.contains("#") }
        let share = InsightReport.percent(Double(app.requests) / Double(requests))
        let shapes = app.shapesSeen.map(\.rawValue).joined(separator: ", ")
        var out = head + "; the largest app in this traffic, \(app.name) (\(share) of requests: \(shapes)), "
        out += "is classed other and not audited. "
        if app.name.contains("#") {
            // Families write digits as '#': the exact name is in the UAs, which doctor reads.
            return Notice(
                message: out + "Write its rules (its name has digits, shown here as #; uaaudit doctor reads the "
                    + "exact name from your log) and give them with --rules:",
                command: generic, app: app.name)
        }
        return Notice(
            message: out + "Write its rules and give them with --rules (or \"rules\" in the config):",
            command: app.rulesInitCommand(out: rulesOut), app: app.name)
    }
}
