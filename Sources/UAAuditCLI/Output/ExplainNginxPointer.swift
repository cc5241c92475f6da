import UAAuditInput
import UAAuditReport
import UAAuditRun

/// `explain --nginx-rules CONF`: one line when the hour's alert-class requests were refused
/// (4xx: 403, 444…) and a rule of nginx's own configuration refuses some of the hour's top
/// alert-class UAs; `doctor --rules` tells the whole of it.
enum ExplainNginxPointer {
    static func line(_ hour: Report.HourEntry, alertClass: String, tree: NginxConfigTree, width: Int = 80)
        -> String?
    {
        guard let refused = hour.impact?[alertClass]?.s4xx, refused > 0, !hour.top.isEmpty else { return nil }
        let tested = hour.top.map { NginxUAAudit.TestedUA(ua: $0.ua, className: alertClass, requests: $0.count) }
        let audit = NginxUAAudit.evaluate(tree, uas: tested)
        guard !audit.findings.isEmpty else { return nil }
        let hit = Set(audit.findings.flatMap { $0.uas.map(\.ua) }).count
        let rules = audit.findings.prefix(2).map { finding -> String in
            let place = finding.decidedBy.first?.place ?? finding.actedOnBy.place
            return "\(place) (\(finding.status))"
        }
        let more = audit.findings.count > 2 ? " and \(audit.findings.count - 2) more" : ""
        let text =
            "nginx's own rules refuse \(hit) of the \(tested.count) top \(alertClass) UAs: "
            + rules.joined(separator: ", ") + more + "; uaaudit doctor --rules RULES names each"
        return TerminalText.wrapped(text, indent: "  ", width: width).joined(separator: "\n") + "\n"
    }
}
