import Dispatch
import FoundationEssentials
import UAAuditAudit
import UAAuditInput
import UAAuditReport
import UAAuditRun

/// `uaaudit scan`: audit log files once and report per hour.
struct ScanCommand {
    typealias P = PolicyOptions
    static let options: [OptionDef] =
        AuditOptions.formatOptions + AuditOptions.ruleOptions + AlertOptions.options + InsightOptions.options + [
            P.threshold, P.minRequests, P.top, P.json, P.out, P.html, P.prom, P.threads, P.maxLineBytes,
            P.failOnAlert, P.quiet, CommonOptions.help,
        ]

    static let spec = CommandSpec(
        "scan", label: "scan FILE...", summary: ["audit logs once; per-hour report (summary, --json, --out)"],
        usage: ["uaaudit scan [options] FILE..."],
        about: """
            Audits nginx access logs: classifies every request's User-Agent by ordered
            PCRE2 rules, counts the classes per hour, and flags the hours whose
            alert-class share is over the threshold. FILE may be '-' for stdin; gzip
            files are detected by their first bytes.
            """, options: options, operands: .file)

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Log format:
        \(AuditOptions.formatHelp)
        Rules and alerting:
        \(AuditOptions.rulesHelp)
        \(OptionHelp.render([P.threshold, P.minRequests, P.top, P.failOnAlert]))

        Split clients and UA drift (each hour's baseline: the scan's earlier hours):
        \(InsightOptions.help)

        Alerts (one message per run, listing every hour over the threshold):
        \(AlertOptions.help)

        Output:
        \(OptionHelp.render([P.json, P.out, P.html, P.prom, P.quiet, P.threads, P.maxLineBytes, CommonOptions.help]))

        Examples:
          uaaudit scan /var/log/nginx/access.log
          uaaudit scan --json access.log.1 access.log.2.gz > report.json
          zcat old.log.gz | uaaudit scan --format combined -
          uaaudit scan --nginx-conf /etc/nginx/nginx.conf --format ua_log access.log
          uaaudit scan -q --webhook "$WECOM_URL" --host web-1 access.log
          uaaudit scan -q --html day.html access.log

        \(ExitCode.helpText(for: [.success, .alert, .usage, .input, .delivery, .output, .encoding, .formatMismatch]))
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: ScanCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) {
            console.out(ScanCommand.help + "\n")
            return .success
        }
        let configuration: ScanConfiguration
        let alerts: AlertOptions
        do {
            configuration = try ScanCommand.configuration(args)
            alerts = try AlertOptions.parse(args, environment: environment)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.positional.isEmpty {
            console.error("no input files; give FILE... or '-' for stdin (see uaaudit scan --help)")
            return .usage
        }
        if args.positional.filter({ $0 == "-" }).count > 1 {
            console.error("'-' (stdin) can be given only once")
            return .usage
        }
        let outputs: [OutputGuard.Named]
        do {
            try OutputGuard.checkProm(args.value(P.prom), role: P.prom.flag)
            outputs = try OutputGuard.resolve(
                [
                    args.value(P.out).map { .init(P.out.flag, $0) }, args.value(P.html).map { .init(P.html.flag, $0) },
                    args.value(P.prom).map { .init(P.prom.flag, $0) },
                ].compactMap { $0 }, json: args.flag(P.json))
            try OutputGuard.check(
                inputs: args.positional.map { .init("the input", $0) },
                readOnly: [
                    args.value(AuditOptions.rulesFile).map { .init("the rules file", $0) },
                    args.value(AuditOptions.nginxConf).map { .init("the nginx config", $0) },
                    args.value(InsightOptions.clientSaltFile).map { .init("the client salt file", $0) },
                ].compactMap { $0 }
                    + OutputGuard.otherReads(nginxConf: args.value(AuditOptions.nginxConf), channels: alerts.channels),
                outputs: outputs)
        } catch {
            console.error(error.message)
            return .usage
        }
        for warning in SecretExposure.warnings(channels: alerts.channels)
            + SecretExposure.warning(saltFile: args.value(InsightOptions.clientSaltFile))
        {
            console.error(warning)
        }
        // Where each output goes: a file (links followed) or `-`, stdout.
        let destinations = OutputGuard.Destinations(outputs, json: args.flag(P.json))
        let target = destinations.target
        let printJSON = destinations.printJSON
        let stdoutTaken = destinations.stdoutTaken

        let counter = ProgressCounter()
        counter.expect(inputs: args.positional)
        let progress = ProgressLine.start(
            counter: counter, stderrIsTerminal: console.stderrIsTerminal, quiet: args.flag(P.quiet))
        let started = DispatchTime.now().uptimeNanoseconds
        var now: Int64 = 0
        let scanned = ScanReport(
            scanning: args.positional, configuration: configuration, progress: progress == nil ? nil : counter
        ) {
            now = Timestamps.now(environment: environment)
            return Timestamps.iso8601UTC(seconds: now)
        }
        progress?.stop()
        let (result, report) = (scanned.result, scanned.report)

        var status = ExitCode.success
        for source in result.sources {
            if let error = MismatchHint.error(of: source) {
                console.error(error)
                status = .input
            }
        }
        // No input could be read at all: there is no report to write or show (an empty one
        // would replace the previous report with zeros); the errors say all there is.
        let nothingRead = result.sources.allSatisfy { $0.error != nil && $0.lines == 0 }
        if nothingRead { return status }
        if let out = target(P.out.flag), out != "-",
            let failed = ReportOutput.write(
                report, to: out, console: console, untouched: "the previous report is untouched")
        {
            return failed
        }
        // The HTML page and the metrics are extras: one that cannot be written is exit 6 at the
        // end, but the summary is shown and the alert still goes out (a report that cannot be
        // written stops here: the messages name it).
        var extraUnwritten = false
        if let html = target(P.html.flag),
            !OutputFile.write(Array(HTMLReport.render(report).utf8), to: html, what: "HTML report", console: console)
        {
            extraUnwritten = true
        }
        if let prom = target(P.prom.flag) {
            // A scan that could not read an input is not a success: its timestamp is left out.
            let metrics = PrometheusMetrics.scan(
                report, succeededAt: status == .success ? now : nil, sources: result.sources)
            let text = PrometheusText.render(metrics)
            if !OutputFile.write(Array(text.utf8), to: prom, what: "metrics", console: console) {
                extraUnwritten = true
            }
        }
        if printJSON {
            if let failed = ReportOutput.print(report, console: console) { return failed }
        } else if !args.flag(P.quiet), !stdoutTaken {
            let palette = Palette.forStandardOutput(isTerminal: console.stdoutIsTerminal, environment: environment)
            console.out(Summary.render(report, width: 80, palette: palette))
        }
        // Built-in example rules on another app's traffic: said whatever -q and --json.
        if let notice = ExampleRulesNotice.notice(report, rulesOut: "rules.json") {
            console.err(raw: ExampleRulesOutput.text(notice))
        }
        if environment["UAAUDIT_TIMING"] != nil {
            // For bench/run.sh: the serial tail, from the last chunk read to the report written.
            let end = DispatchTime.now().uptimeNanoseconds
            let last = max(result.lastReadAt, started)
            let total = Double(end - started) / 1e9
            let tail = Double(end - last) / 1e9
            console.error("uaaudit-timing: total \(total) s, after the last chunk \(tail) s")
        }
        if status == .success, args.flag(P.failOnAlert), report.hours.contains(where: \.alerted) {
            status = .alert
        }
        // Alerts go out after the report is written and shown; a failure outranks the rest.
        if !alerts.channels.isEmpty,
            let notification = AlertNotification(
                report: report, host: alerts.host, links: ExplainLinks.scan(args, reportPath: target("--out")))
        {
            for result in alerts.deliver(notification, environment: environment) {
                if !result.delivered { status = .delivery }
                if !result.delivered || !args.flag(P.quiet) {
                    console.error("alert \(notification.id) \(TerminalText.escape(result.description))")
                }
            }
        }
        if extraUnwritten, status.rawValue < ExitCode.output.rawValue { status = .output }
        // A format mismatch outranks every other status (CONTRACTS: the highest wins).
        let hints = MismatchHint.messages(
            sources: result.sources, samples: result.samples, format: configuration.format,
            nginxConf: args.value(AuditOptions.nginxConf), inConfig: false)
        for hint in hints { console.error(hint) }
        if !hints.isEmpty { status = .formatMismatch }
        for hint in MismatchHint.shortInputHints(
            sources: result.sources, samples: result.samples, format: configuration.format,
            nginxConf: args.value(AuditOptions.nginxConf), inConfig: false)
        {
            console.error(hint)
        }
        return status
    }

    /// The scan configuration of the format, rules, policy, insight and reading options.
    static func configuration(_ args: Arguments) throws(CLIError) -> ScanConfiguration {
        let format = try AuditOptions.format(args)
        let rules = try AuditOptions.rules(args)
        var threshold = Threshold.standard
        if let text = args.value(P.threshold) { threshold = try ThresholdOption.parse(text, name: P.threshold.flag) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return ScanConfiguration(
            format: format, rules: rules, threshold: threshold,
            minRequests: Int64(try args.number(P.minRequests)),
            top: try args.number(P.top),
            // More threads than cores would only add memory (each has its own cache and
            // tables; CONTRACTS bounds memory at any thread count): they are not started. The
            // report is the same for every count.
            threads: min(try args.integer(P.threads, range: 1...256) ?? cores, max(cores, 1)),
            maxLineBytes: try args.number(P.maxLineBytes),
            insight: try InsightOptions.settings(args, config: nil, format: format, rules: rules))
    }
}
