import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// What `doctor` says of nginx's own UA rules (``NginxRulesDiagnosis``).
extension NginxRulesDiagnosis {
    private var counted: String {
        "\(audit.uaMaps) map\(audit.uaMaps == 1 ? "" : "s") on the UA (\(audit.uaMapEntries) entries), "
            + "\(audit.uaConditions) if\(audit.uaConditions == 1 ? "" : "s") on it or on what it decides"
    }

    func render() -> String {
        guard triedUAs else {
            // Nothing to say when no rule reads the UA and no app rules were given.
            if audit.uaMaps + audit.uaConditions == 0 { return "" }
            return "\nnginx's own UA rules: " + counted + ".\n"
                + wrap(
                    "Give the app's rules (--rules FILE, or --app NAME for doctor to write them) to try its UAs "
                        + "against them.", first: "  ", rest: "  ")
        }
        let examples = tested.filter(\.example).count
        var heading = "nginx's own UA rules, tried on \(tested.count) of the app's UAs (\(examples) from the "
        heading += "examples of \(rulesSource)"
        if tested.count > examples {
            heading += ", \(tested.count - examples) the most frequent of their classes in the last \(linesRead) lines"
        }
        heading += "):"
        var out = "\n" + wrap(heading, first: "", rest: "")
        out += "  " + counted + "\n"
        if tested.isEmpty {
            out += "  no UA to try: the rules have no examples of their classes and the log none of them\n"
        }
        for finding in ordered { out += render(finding) }
        if audit.findings.isEmpty, !tested.isEmpty {
            out += "  none refuses or rate-limits any of them\n"
        }
        for note in audit.dependsOn {
            out += wrap(
                note.variables == ["the URI (rewrite)"]
                    ? "\(note.place): a rewrite with a flag: whether it stops the rules after it depends on "
                        + "the URI; nothing is claimed after it"
                    : "\(note.place): an if on the UA that also depends on "
                        + "\(note.variables.joined(separator: ", ")), which uaaudit does not evaluate (another "
                        + "variable, a regex capture): taken as false",
                first: "  note: ", rest: "    ")
        }
        for problem in audit.problems { out += wrap(problem, first: "  not evaluated: ", rest: "    ") }
        if let headline = ordered.first, hitsAppClass(headline) {
            let names = classes(of: headline).filter { $0 != rules.alertClass }.joined(separator: " and ")
            out += wrap(
                "nginx itself refuses the app's \(names) UAs (\(what(headline.action))): change the entry "
                    + "at \(headline.decidedBy.first?.place.description ?? headline.actedOnBy.place.description), "
                    + "or the app's UA, before any other audit figure can be trusted.",
                first: "  ", rest: "  ")
        }
        return out
    }

    private func what(_ action: NginxUAAudit.Finding.Action) -> String {
        switch action {
        case .returns(let code): "return \(code)"
        case .rateLimited(let zone, let status): "rate-limited in zone \(zone), \(status) over the limit"
        }
    }

    private func render(_ finding: NginxUAAudit.Finding) -> String {
        let server = finding.server.isEmpty ? "(no server_name)" : finding.server
        let scope =
            finding.locations.isEmpty
            ? "every location of server \(server) (\(finding.serverPlace))"
            : "server \(server) (\(finding.serverPlace)), location\(finding.locations.count == 1 ? "" : "s") "
                + finding.locations.joined(separator: ", ")
        var out = wrap(
            "\(what(finding.action)) for \(classes(of: finding).joined(separator: ", ")) UAs, in \(scope):",
            first: "  ", rest: "    ")
        for line in finding.decidedBy {
            out += wrap("\(line.place)  \(line.text)", first: "    decided by ", rest: "      ")
        }
        if finding.decidedBy.isEmpty {
            out += "    decided by no entry: the map's default (none written: the empty string)\n"
        }
        var acting: [NginxUAAudit.Line] = []
        if let condition = finding.condition, !finding.decidedBy.contains(condition) { acting.append(condition) }
        if let last = acting.last, last.place == finding.actedOnBy.place {
            // `if (…) { return 403; }` on one line: that line once.
            acting[acting.count - 1].text += " { \(finding.actedOnBy.text); }"
        } else {
            acting.append(finding.actedOnBy)
        }
        for line in acting { out += wrap("\(line.place)  \(line.text)", first: "    acted on by ", rest: "      ") }
        for tested in finding.uas.prefix(5) {
            out += wrap("\(tested.ua)  [\(tested.className)]", first: "    UA ", rest: "       ")
        }
        if finding.uas.count > 5 { out += "    and \(finding.uas.count - 5) more of the UAs tried\n" }
        let counts = logged(finding)
        if !counts.isEmpty {
            let parts = counts.map { "\($0.requests) \($0.className) request\($0.requests == 1 ? "" : "s")" }
            out += wrap(
                "in the last \(linesRead) lines: \(parts.joined(separator: ", ")) got \(finding.status)",
                first: "    ", rest: "      ")
        }
        return out
    }

    /// `text` in lines of 80 columns, the first after `first`, the others after `rest`. A word
    /// longer than a line (a path) stays whole on a line of its own, up to ``longestWord``
    /// columns: the place a finding names is never cut, a hostile UA is.
    private func wrap(_ text: String, first: String, rest: String) -> String {
        var lines: [String] = []
        var line = first
        var fresh = true
        for word in TerminalText.escape(text).split(separator: " ") {
            let piece = TerminalText.escape(String(word), limit: Self.longestWord)
            if !fresh, TerminalText.columns(line) + 1 + TerminalText.columns(piece) > 80 {
                lines.append(line)
                line = rest
                fresh = true
            }
            line += (fresh ? "" : " ") + piece
            fresh = false
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The most columns a word of a finding is shown with.
    static let longestWord = 400
}
