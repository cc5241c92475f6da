import UAAuditAudit
import UAAuditInput
import UAAuditReport
import UAAuditRun

/// What `doctor` says of the app in the traffic (``AppDiagnosis``), and what it says when it
/// cannot tell which app is the operator's.
extension AppDiagnosis {
    /// The rules file beside a config at `configPath` (`/etc/uaaudit/rules.json` for
    /// `/etc/uaaudit/uaaudit.json`).
    /// Absolute, so that the config names it wherever `run` is started (cron starts it in the
    /// account's home).
    static func rulesPath(besideConfig configPath: String?, workingDirectory: String) -> String {
        guard let configPath else { return "/etc/uaaudit/rules.json" }
        let absolute = configPath.hasPrefix("/") ? configPath : workingDirectory + "/" + configPath
        let slash = absolute.lastIndex(of: "/")!
        return String(absolute[...slash]) + "rules.json"
    }

    func render(givenRules: String? = nil) -> String {
        let detection = sample.detection
        let sampled = sample.reads.reduce(0) { $0 + $1.parsed }
        let logs = sample.reads.map(\.path)
        var out = "\napps in the traffic (last \(sampled) parsed lines of \(logs.joined(separator: ", "))):\n"
        if detection.candidates.isEmpty {
            out += "  none: no UA there has an iOS app's shape (NAME/VERSION (iPhone; iOS …), NAME/BUILD\n"
            out += "  CFNetwork/… Darwin/…, or a WKWebView with the app's token after the engine)\n"
        }
        for candidate in detection.candidates.prefix(5) {
            let share = InsightReport.percent(
                detection.requests > 0 ? Double(candidate.requests) / Double(detection.requests) : 0)
            var line = "\(candidate.name) \(share) of requests"
            if let clients = candidate.clients { line += ", \(clients) client\(clients == 1 ? "" : "s")" }
            line += ": " + candidate.shapesSeen.map(\.rawValue).joined(separator: ", ")
            if !candidate.bundles.isEmpty { line += "; bundles " + candidate.bundles.joined(separator: ", ") }
            if !candidate.eligible {
                line +=
                    AppDetection.inAppBrowsers.contains(candidate.name.lowercased())
                    ? " (a well-known app's in-app browser: taken only with --app)"
                    : " (only as a web view's token: taken only with --app)"
            }
            out += TerminalText.wrapped(line, indent: "  ", width: 80).joined(separator: "\n    ") + "\n"
        }
        if detection.found > 5 { out += "  (\(detection.found - 5) more)\n" }
        out += "\n"
        // The verdict's prose is wrapped to 80 columns; its indented command lines are kept whole.
        let verdict =
            givenRules.map { "The config below names the rules you gave, \($0), and doctor writes none.\n" }
            ?? verdict()
        for line in verdict.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix(" ") || line.isEmpty {
                out += line + "\n"
            } else {
                out += TerminalText.wrapped(String(line), indent: "", width: 80).joined(separator: "\n") + "\n"
            }
        }
        return out
    }

    private func verdict() -> String {
        let detection = sample.detection
        let ratio = AppDetection.dominanceRatio
        let rule =
            "(an app is taken when it has \(ratio)× the requests of the next and at least "
            + "\(Int(AppDetection.minShare * 100))% of all and \(AppDetection.minRequests) requests, and no "
            + "other has more clients)"
        guard let chosen else {
            let largest = detection.candidates.first { $0.eligible && $0.requests >= AppDetection.minRequests }
            if let largest {
                var out = "No app clearly dominates \(rule), so no rules are written and the config uses the "
                out += "built-in example rules (written for an app called MyApp), which class your app's "
                out += "traffic as other. Name your app and run doctor again:\n\n"
                out += "    uaaudit doctor --app \(ShellWord.quoted(largest.name)) …   (or another name above)\n"
                return out
            }
            return "The config uses the built-in example rules (written for an app called MyApp): they class "
                + "nothing of another app. Write your app's rules (the name it puts in its own UA) and add "
                + "\"rules\" to the config:\n\n    uaaudit rules init --app NAME --out \(ShellWord.quoted(rulesPath))\n"
        }
        let why =
            named
            ? (chosen.requests > 0
                ? "\(chosen.name) (--app)"
                : "\(chosen.name) (--app; not seen in these lines: check the name it puts in its UA)")
            : "\(chosen.name) is the app \(rule)"
        switch rules {
        case .failure(let error)?:
            return "\(why), but no rules can be written for it: \(error.description). Write them with "
                + "uaaudit rules init and add \"rules\" to the config.\n"
        default:
            return "\(why): its rules (uaaudit rules init) go in \(rulesPath), and the config below names "
                + "them:\n\n    \(chosen.rulesInitCommand(out: rulesPath))\n"
        }
    }
}
