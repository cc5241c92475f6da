import UAAuditCore

/// `uaaudit classify`: which class a UA gets, and which rule and pattern gave it.
struct ClassifyCommand {
    static let specs: [Arguments.Spec] = AuditOptions.ruleSpecs + [.init(name: "help", short: "h", takesValue: false)]

    static let help = """
        Usage: uaaudit classify [--rules FILE] UA...
               some-command | uaaudit classify [--rules FILE]

        Prints the class of each User-Agent given as an argument, or of each line of
        stdin when none is given, with the rule and the pattern that matched. UAs are
        taken as nginx received them (not escaped). Stdin is read and answered line by
        line, in constant memory: it can be a pipe that never ends. A line longer
        than 64 KiB is reported by its length and not classified.

        Options:
        \(AuditOptions.rulesHelp)
          -h, --help               show this help

        Examples:
          uaaudit classify 'App/1 CFNetwork/1494.0.7 Darwin/23.4.0'
          uaaudit classify --rules rules/ios-defaults.json < uas.txt

        \(ExitCode.helpText(for: [.success, .usage, .input]))
        """

    let console: Console

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        let rules: RuleSet
        do {
            args = try Arguments(words, specs: ClassifyCommand.specs)
            if args.flag("help") {
                console.out(ClassifyCommand.help + "\n")
                return .success
            }
            rules = try AuditOptions.rules(args)
        } catch {
            console.error(error.message)
            return .usage
        }
        let output = BufferedOutput(console: console)
        let printer = ClassifyPrinter(rules: rules, output: output)
        if !args.positional.isEmpty {
            for ua in args.positional { printer.print(Array(ua.utf8).span.bytes) }
            output.flush()
            return .success
        }
        do {
            try UALines.read(
                fd: 0, path: "stdin", beforeWaiting: { output.flush() }, stop: { output.closed },
                line: { printer.print($0) },
                overlong: { printer.printOverlong(length: $0) })
        } catch {
            output.flush()
            console.error(error.description)
            return .input
        }
        output.flush()
        return .success
    }
}

/// Prints one UA's class and the rule that gave it, on bytes: the class column and each rule's
/// line are made once, and a printable ASCII UA is copied as it is (others are escaped).
final class ClassifyPrinter {
    let classifier: Classifier
    let output: BufferedOutput
    let width: Int
    /// The class column of each class index, and of `missing` and `errors`.
    private let columns: [[UInt8]]
    private let errorsColumn: [UInt8]
    /// The second line of each rule's patterns, and of `other` and `missing`.
    private let ruleLines: [[[UInt8]]]
    private let otherLine: [UInt8]
    private let missingLine: [UInt8]
    private let rules: RuleSet
    static let shownLimit = 200

    init(rules: RuleSet, output: BufferedOutput) {
        self.rules = rules
        self.classifier = Classifier(rules: rules)
        self.output = output
        let width = max(rules.classNames.map(\.count).max() ?? 0, "errors".count) + 2
        self.width = width
        columns = rules.classNames.map { Array($0.padded(width).utf8) }
        errorsColumn = Array("errors".padded(width).utf8)
        let indent = String(repeating: " ", count: width)
        ruleLines = rules.rules.map { rule in
            rule.patterns.map {
                Array((indent + "rule \(rule.name), pattern \(TerminalText.escape($0.source, limit: 400))\n").utf8)
            }
        }
        otherLine = Array((indent + "no rule matched\n").utf8)
        missingLine = Array((indent + "no UA (empty or '-')\n").utf8)
    }

    func print(_ ua: RawSpan) {
        if Classifier.isMissing(ua) {
            output.append(columns[rules.missingIndex])
            if ua.byteCount == 0 { output.append("(empty)\n") } else { showUA(ua) }
            output.append(missingLine)
            return
        }
        guard let match = classifier.firstMatch(ua) else {
            // A pattern could not finish: say which, with its message (rare, so the slow path).
            let explanation = classifier.explain(ua.withUnsafeBytes { Array($0) })
            output.append(errorsColumn)
            showUA(ua)
            output.append(
                String(repeating: " ", count: width)
                    + "pattern \(explanation.pattern ?? "") failed: \(explanation.failure ?? "")\n")
            return
        }
        output.append(columns[match.rule])
        showUA(ua)
        output.append(match.rule < ruleLines.count ? ruleLines[match.rule][match.pattern] : otherLine)
    }

    func printOverlong(length: Int) {
        output.append(errorsColumn)
        output.append("(a line of \(length) bytes, over the \(UALines.maxLineBytes)-byte limit: not classified)\n")
        output.append(String(repeating: " ", count: width) + "not classified\n")
    }

    /// The UA and its newline: as it is when it is printable ASCII that fits, else escaped and cut.
    private func showUA(_ ua: RawSpan) {
        let printable = ua.byteCount <= ClassifyPrinter.shownLimit
            && ua.withUnsafeBytes { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if printable {
            output.append(ua)
        } else {
            output.append(
                TerminalText.escape(
                    ReportText.render(ua.withUnsafeBytes { Array($0) }), limit: ClassifyPrinter.shownLimit))
        }
        output.append([0x0A])
    }
}
