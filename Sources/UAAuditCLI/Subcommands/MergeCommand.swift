import UAAuditAudit
import UAAuditInput
import UAAuditReport
import UAAuditRun

/// `uaaudit merge`: one report out of the reports of many hosts (or of parts of one log).
struct MergeCommand {
    typealias P = PolicyOptions
    static let threshold = P.threshold.described(
        [
            "the merged report's threshold (0.001 or 0.1%;", "default: the reports' own, which must agree);",
            "above 0.05 needs its % (0.1 would mean 10%)",
        ], default: nil)
    static let minRequests = P.minRequests.described(
        ["the merged report's minimum (default: the reports'", "own, which must agree)"], default: nil)
    static let failOnAlert = P.failOnAlert.described([
        "exit 1 when a merged hour is over the threshold (or", "has a drift alert)",
    ])
    static let json = P.json.described(["print the merged JSON report on stdout (no summary)"])
    static let out = P.out.described([
        "write the merged JSON report to FILE (atomically);", "'-' is stdout. No output may be an input",
    ])
    static let html = P.html.described(["write it as one self-contained HTML page"])
    static let quiet = P.quiet.described(["print no summary"])
    static let options = [threshold, minRequests, P.top, json, out, html, failOnAlert, quiet, CommonOptions.help]

    static let spec = CommandSpec(
        "merge", label: "merge REPORT...", summary: ["combine the JSON reports of many hosts into one"],
        usage: ["uaaudit merge [options] REPORT.json..."],
        about: """
            Combines JSON reports (of scan, run or merge; from many hosts, or from parts
            of one log) into one report of the same schema. Counts add up per hour; the
            shares, the hours over the threshold and the totals are computed again from
            the sums. Hours are matched by their local hour and UTC offset, as a scan
            counts them, so the merge of two halves of a log equals the scan of the
            whole. The reports must have been made with the same rules, and must not
            overlap: the same report twice (by report_id, or by content for reports
            without one), a report already merged into another, or two reports that
            counted the same bytes of one file is exit 2, and nothing is written. The
            merged report lists the ids it was made from in merged_from.
            """, options: options, operands: .file)

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(OptionHelp.render([threshold, minRequests, P.top, failOnAlert]))

        Output:
        \(OptionHelp.render([json, out, html, quiet, CommonOptions.help]))

        Examples:
          uaaudit merge web-*/report.json
          uaaudit merge --out fleet.json --html fleet.html web-1.json web-2.json

        \(ExitCode.helpText(for: [.success, .alert, .usage, .input, .output, .encoding]))
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        let options: ReportMerge.Options
        do {
            args = try Arguments(words, options: MergeCommand.options)
            if args.flag(CommonOptions.help) {
                console.out(MergeCommand.help + "\n")
                return .success
            }
            options = try compile(args)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.positional.isEmpty {
            console.error("no reports to merge; give REPORT.json... (see uaaudit merge --help)")
            return .usage
        }

        let outputs: [OutputGuard.Named]
        do {
            outputs = try OutputGuard.resolve(
                [
                    args.value(Self.out).map { .init(Self.out.flag, $0) },
                    args.value(Self.html).map { .init(Self.html.flag, $0) },
                ]
                .compactMap { $0 }, json: args.flag(Self.json))
            // merge reads files only: `-` is a file of that name, never stdin.
            var reports = args.positional.map { OutputGuard.Named("the report", $0) }
            for i in reports.indices where reports[i].path == "-" { reports[i].target = "./-" }
            try OutputGuard.check(inputs: reports, outputs: outputs)
        } catch {
            console.error(error.message)
            return .usage
        }
        // Where each output goes: a file (links followed) or `-`, stdout.
        let destinations = OutputGuard.Destinations(outputs, json: args.flag(Self.json))
        let target = destinations.target
        let printJSON = destinations.printJSON
        let stdoutTaken = destinations.stdoutTaken

        // Like scan with its inputs: a report that cannot be read is named, the rest are merged.
        var status = ExitCode.success
        var inputs: [ReportMerge.Input] = []
        for path in args.positional {
            // A report is a regular file (CONTRACTS): a FIFO, device or directory is a usage
            // error, named, before anything is read (a FIFO would wait for a writer).
            if let kind = Syscalls.fileKind(path, followingLinks: true), kind != .regular {
                console.error(
                    "\(path) is \(kind == .other ? "not a regular file" : kind.rawValue + ", not a regular file"): "
                        + "merge reads reports from regular files (nothing was written)")
                return .usage
            }
            do {
                inputs.append(try ReportMerge.Input(path: path))
            } catch {
                console.error(error.description)
                status = .input
            }
        }
        guard !inputs.isEmpty else { return status }
        let outcome: ReportMerge.Outcome
        do {
            outcome = try ReportMerge.merge(inputs, options: options)
        } catch {
            console.error(error.description)
            return .usage
        }
        // Checked once the reports are known to be mergeable (same rules and policy), before
        // anything is written: lines in two reports would be counted twice.
        if let overlap = ReportIdentity.overlap(inputs) {
            console.error(overlap.description)
            return .usage
        }
        for note in outcome.notes { console.note(note) }
        let report = outcome.report

        if let out = target(Self.out.flag), out != "-",
            let failed = ReportOutput.write(
                report, to: out, console: console, untouched: "the previous one is untouched")
        {
            return failed
        }
        if let html = target(Self.html.flag),
            !OutputFile.write(Array(HTMLReport.render(report).utf8), to: html, what: "HTML report", console: console)
        {
            return .output
        }
        if printJSON {
            if let failed = ReportOutput.print(report, console: console) { return failed }
        } else if !args.flag(Self.quiet), !stdoutTaken {
            let palette = Palette.forStandardOutput(isTerminal: console.stdoutIsTerminal, environment: environment)
            console.out(Summary.render(report, width: 80, palette: palette))
        }
        if status == .success, args.flag(Self.failOnAlert), report.hours.contains(where: \.alerted) {
            status = .alert
        }
        return status
    }

    private func compile(_ args: Arguments) throws(CLIError) -> ReportMerge.Options {
        var threshold: Threshold?
        if let text = args.value(Self.threshold) {
            threshold = try ThresholdOption.parse(text, name: Self.threshold.flag)
        }
        return ReportMerge.Options(
            threshold: threshold,
            minRequests: try args.integer(Self.minRequests).map { Int64($0) },
            top: try args.number(P.top),
            generatedAt: Timestamps.iso8601UTC(seconds: Timestamps.now(environment: environment)))
    }
}
