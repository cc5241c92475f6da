import UAAuditAudit
import UAAuditInput

/// What nginx's own UA rules do to the app's UAs (`doctor`): the findings of
/// ``NginxUAAudit`` with the rules they were tried for and what the log shows of them.
package struct NginxRulesDiagnosis: Sendable {
    package var audit: NginxUAAudit
    package var rules: RuleSet
    /// Where the rules came from, for the heading (`--rules FILE`, the config's, doctor's own).
    package var rulesSource: String
    package var tested: [NginxUAAudit.TestedUA]
    /// UA → status → requests in the lines read, and how many lines that was.
    var statuses: [String: [Int: Int64]]
    package var linesRead: Int

    /// False when there were no app rules to take UAs from: the rules are only counted.
    package var triedUAs = true

    static func examine(
        tree: NginxConfigTree, rules: RuleSet, rulesSource: String, sample: AppSample?, tryUAs: Bool = true
    ) -> NginxRulesDiagnosis {
        guard tryUAs else {
            return NginxRulesDiagnosis(
                audit: NginxUAAudit.evaluate(tree, uas: []), rules: rules, rulesSource: rulesSource, tested: [],
                statuses: [:], linesRead: 0, triedUAs: false)
        }
        let tested = AppUAs.select(rules: rules, seen: sample?.requests ?? [:])
        return NginxRulesDiagnosis(
            audit: NginxUAAudit.evaluate(tree, uas: tested), rules: rules, rulesSource: rulesSource,
            tested: tested, statuses: sample?.statuses ?? [:],
            linesRead: sample?.reads.reduce(0) { $0 + $1.parsed } ?? 0)
    }

    /// The classes a finding's UAs are in, in the rules' order.
    package func classes(of finding: NginxUAAudit.Finding) -> [String] {
        rules.classNames.filter { name in finding.uas.contains { $0.className == name } }
    }

    /// Whether the finding refuses UAs of a class the app sends on purpose (not the alert class).
    package func hitsAppClass(_ finding: NginxUAAudit.Finding) -> Bool {
        classes(of: finding).contains { $0 != rules.alertClass }
    }

    /// Requests of each of the finding's classes that got its status in the lines read.
    package func logged(_ finding: NginxUAAudit.Finding) -> [(className: String, requests: Int64)] {
        guard !statuses.isEmpty else { return [] }
        let counts = AppUAs.requests(rules: rules, statuses: statuses, status: finding.status)
        return classes(of: finding).map { ($0, counts[$0] ?? 0) }
    }

    /// The findings, those that refuse one of the app's own classes first.
    package var ordered: [NginxUAAudit.Finding] {
        audit.findings.filter(hitsAppClass) + audit.findings.filter { !hitsAppClass($0) }
    }
}
