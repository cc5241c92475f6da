import FoundationEssentials
import Glibc
import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// `uaaudit explain HOUR`: one hour on one page, from a JSON report or from logs.
struct ExplainCommand {
    typealias P = PolicyOptions
    static let json = P.json.described([
        "the hour's report entry as one JSON object, with", "the report's threshold, min_requests,",
        "alert_class and report_id (keys sorted)",
    ])
    static let nginxRules = OptionDef(
        "nginx-rules", value: "CONF",
        help: [
            "nginx.conf (its includes followed) whose own UA", "rules are checked against the hour's top",
            "alert-class UAs when they were refused (4xx)",
        ], completion: .file)
    static let options: [OptionDef] =
        AuditOptions.formatOptions + AuditOptions.ruleOptions + InsightOptions.options + [
            P.threshold, P.minRequests, P.top, P.threads, P.maxLineBytes, json, nginxRules, CommonOptions.help,
        ]

    static let spec = CommandSpec(
        "explain", label: "explain HOUR ...", summary: ["one hour on one page: share, cost, split clients, drift"],
        usage: ["uaaudit explain HOUR REPORT.json", "uaaudit explain HOUR [scan options] FILE..."],
        about: """
            Explains one hour on one page: the alert class's share and the counts, what
            its requests cost (statuses, 401/403, paths), which clients sent both the
            app's UAs and alert-class ones (split clients), and which UA families are new
            against the hours before (drift). Reads a JSON report (scan --out, run's
            report, merge), or scans the logs first with scan's options.

            HOUR is an hour of the report: 2026-11-29T17:00:00+08:00, or a prefix of it
            such as 2026-11-29T17 or '2026-11-29 17:00' (it must name one hour), or an
            instant with its zone, found at whatever offset it was logged:
            2026-11-29T09:00Z finds the hour logged as 2026-11-29T17:00:00+08:00.
            """, options: options, operands: .file)

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Output:
        \(OptionHelp.render([json, nginxRules]))

        Options for logs (as scan; see uaaudit scan --help):
        \(AuditOptions.formatHelp)
        \(AuditOptions.rulesHelp)
        \(OptionHelp.render([P.threshold, P.minRequests, P.top, P.threads, P.maxLineBytes]))
        \(InsightOptions.help)
        \(OptionHelp.render([CommonOptions.help]))

        Examples:
          uaaudit explain 2026-11-29T17 /var/lib/uaaudit/report.json
          uaaudit explain '2024-03-31 23:00' SampleLogs/ua_log.log
          uaaudit explain 2024-03-31T15:00Z --json SampleLogs/ua_log.log

        \(ExitCode.helpText(for: [.success, .usage, .input, .encoding, .formatMismatch]))
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: ExplainCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) {
            console.out(ExplainCommand.help + "\n")
            return .success
        }
        guard args.positional.count >= 2 else {
            console.error("explain needs an HOUR and a report or logs: uaaudit explain HOUR REPORT.json (see --help)")
            return .usage
        }
        let wanted = args.positional[0]
        let inputs = Array(args.positional.dropFirst())
        let report: Report
        let hints: [String]
        switch load(inputs, args) {
        case .success(let loaded): (report, hints) = loaded
        case .failure(let failure):
            console.error(failure.message)
            // A log that could not be read, beside one in the wrong format: both are told, and
            // the higher status wins.
            for hint in failure.hints { console.error(hint) }
            return failure.hints.isEmpty ? failure.status : .formatMismatch
        }
        // Logs that do not match their format (as scan tells them): the page, if any, then
        // the format that parses them, and exit 8.
        let status = explain(wanted, in: report, inputs: inputs, args: args, mismatched: !hints.isEmpty)
        // Built-in example rules on another app's traffic (a log, or a report made so).
        if let notice = ExampleRulesNotice.notice(report, rulesOut: "rules.json") {
            console.err(raw: ExampleRulesOutput.text(notice))
        }
        for hint in hints { console.error(hint) }
        return hints.isEmpty ? status : .formatMismatch
    }

    /// Prints the page of the hour `wanted`; the status (a mismatched format is told after).
    private func explain(
        _ wanted: String, in report: Report, inputs: [String], args: Arguments, mismatched: Bool
    ) -> ExitCode {
        let matches = ExplainCommand.hours(matching: wanted, in: report)
        if report.hours.isEmpty, mismatched { return .formatMismatch }  // the hint says it all
        if report.hours.isEmpty, report.totals.malformed > 0 {
            // Logs none of whose lines parsed: the format is wrong, not the hour.
            console.error(
                "none of the \(report.totals.lines) lines matched the log format \(report.format.name ?? report.format.string); "
                    + "give the format nginx writes (--format, --log-format or --nginx-conf; see uaaudit explain --help)"
            )
            return .usage
        }
        guard matches.count == 1, let hour = matches.first else {
            let listed = (matches.isEmpty ? report.hours : matches).map(\.hour)
            let shown = listed.count > 6 ? listed.prefix(3) + ["…"] + listed.suffix(3) : listed[...]
            console.error(
                (matches.isEmpty ? "no hour \(wanted) in the report" : "\(wanted) names \(matches.count) hours")
                    + "; its hours: " + (shown.isEmpty ? "none" : shown.joined(separator: ", ")))
            return .usage
        }
        if args.flag(ExplainCommand.json) {
            let page = ExplainJSON(
                hour: hour, threshold: report.threshold, minRequests: report.minRequests,
                alertClass: report.rules.alertClass, reportID: report.reportID)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            guard let bytes = try? encoder.encode(page) else {
                console.error("cannot encode the hour \(hour.hour) (an internal error; please report it)")
                return .encoding
            }
            console.out(bytes: [UInt8](bytes) + [0x0A])
            return .success
        }
        var tree: NginxConfigTree?
        if let path = args.value(ExplainCommand.nginxRules) {
            do {
                tree = try NginxConfigTree.load(path: path)
            } catch {
                console.error("\(ExplainCommand.nginxRules.flag) \(path): \(error)")
                return .usage
            }
        }
        let palette = Palette.forStandardOutput(isTerminal: console.stdoutIsTerminal, environment: environment)
        var page = ExplainPage.render(hour, of: report, source: inputs.joined(separator: " "), palette: palette)
        if let tree,
            let pointer = ExplainNginxPointer.line(hour, alertClass: report.rules.alertClass, tree: tree)
        {
            page += "\n" + palette.strong("What nginx refuses itself") + "\n" + pointer
        }
        console.out(page)
        return .success
    }

    /// The hours whose name starts with `text` (a space may stand for the `T`); when `text`
    /// names an instant with its zone (`2024-03-31T15:00Z`), the hours that hold that instant
    /// at any offset (the hour logged as `2024-03-31T23:00:00+08:00`).
    static func hours(matching text: String, in report: Report) -> [Report.HourEntry] {
        let wanted = text.replacing(" ", with: "T")
        if let exact = report.hours.first(where: { $0.hour == wanted }) { return [exact] }
        let named = report.hours.filter { $0.hour.hasPrefix(wanted) }
        guard named.isEmpty, let instant = InstantText.parse(text) else { return named }
        return report.hours.filter { entry in
            guard let start = HourKey(iso8601: entry.hour)?.startInstant else { return false }
            return start <= instant && instant < start + 3600
        }
    }

    /// What `explain --json` prints: the hour's entry, as in the report, and what it is judged by.
    struct ExplainJSON: Encodable {
        var hour: Report.HourEntry
        var threshold: Threshold
        var minRequests: Int64
        var alertClass: String
        var reportID: String?

        enum CodingKeys: String, CodingKey {
            case hour, threshold
            case minRequests = "min_requests"
            case alertClass = "alert_class"
            case reportID = "report_id"
        }
    }

    struct Failure: Error {
        var message: String
        var status: ExitCode
        /// Scan's messages for other logs that do not match their format.
        var hints: [String] = []
    }

    /// A report file as it is, or the report of a scan of the logs with scan's messages for
    /// logs that do not match their format (``MismatchHint``).
    private func load(_ inputs: [String], _ args: Arguments) -> Result<(Report, [String]), Failure> {
        // A report or a log is a regular file, or `-` (CONTRACTS): a FIFO would wait for a
        // writer before explain could tell which it is.
        for path in inputs where path != "-" {
            if let kind = Syscalls.fileKind(path, followingLinks: true), kind != .regular {
                let what = kind == .other ? "not a regular file" : kind.rawValue + ", not a regular file"
                return .failure(
                    Failure(
                        message: "\(path) is \(what): explain reads a report or logs from regular files, or - "
                            + "for stdin (uaaudit explain HOUR - < FILE)",
                        status: .usage))
            }
        }
        if inputs.count == 1, inputs[0] != "-", ReportFile.isReport(path: inputs[0]) {
            // A report is shown as it was made: options for logs would be silently ignored.
            let ignored = ExplainCommand.options.filter {
                $0.name != ExplainCommand.json.name && $0.name != CommonOptions.help.name
                    && $0.name != ExplainCommand.nginxRules.name && args.given($0)
            }
            if !ignored.isEmpty {
                return .failure(
                    Failure(
                        message:
                            "\(ignored.map { "--\($0.name)" }.joined(separator: ", ")) \(ignored.count == 1 ? "applies" : "apply") to logs, not to a report: \(inputs[0]) is shown as it was made; give the logs instead to apply \(ignored.count == 1 ? "it" : "them")",
                        status: .usage))
            }
            do {
                return .success((try ReportMerge.load(path: inputs[0]), []))
            } catch {
                return .failure(Failure(message: error.description, status: .input))
            }
        }
        let configuration: ScanConfiguration
        do {
            configuration = try ScanCommand.configuration(args)
            // One log under two names would count its lines twice.
            try OutputGuard.check(inputs: inputs.map { .init("the input", $0) }, outputs: [])
        } catch {
            return .failure(Failure(message: error.message, status: .usage))
        }
        let scanned = ScanReport(scanning: inputs, configuration: configuration, progress: nil) {
            Timestamps.iso8601UTC(seconds: Timestamps.now(environment: environment))
        }
        let result = scanned.result
        let hints = MismatchHint.messages(
            sources: result.sources, samples: result.samples, format: configuration.format,
            nginxConf: args.value(AuditOptions.nginxConf), inConfig: false)
        if let failed = result.sources.lazy.compactMap(MismatchHint.error(of:)).first {
            return .failure(Failure(message: failed, status: .input, hints: hints))
        }
        return .success((scanned.report, hints))
    }
}
