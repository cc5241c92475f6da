import UAAuditCore

/// `uaaudit classify`: which class a UA gets, and which rule and pattern gave it.
struct ClassifyCommand {
    static let specs: [Arguments.Spec] = AuditOptions.ruleSpecs + [.init(name: "help", short: "h", takesValue: false)]

    static let help = """
        Usage: uaaudit classify [--rules FILE] UA...
               some-command | uaaudit classify [--rules FILE]

        Prints the class of each User-Agent given as an argument, or of each line of
        stdin when none is given, with the rule and the pattern that matched. UAs are
        taken as nginx received them (not escaped).

        Options:
        \(AuditOptions.rulesHelp)
          -h, --help               show this help

        Examples:
          uaaudit classify 'App/1 CFNetwork/1494.0.7 Darwin/23.4.0'
          uaaudit classify --rules rules/ios-defaults.json < uas.txt

        \(ExitCode.helpText(for: [.success, .usage]))
        """

    let console: Console
    let readStandardInput: () -> [UInt8]

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
        var uas: [[UInt8]] = args.positional.map { Array($0.utf8) }
        if uas.isEmpty {
            let input = readStandardInput()
            uas = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if uas.last?.isEmpty == true { uas.removeLast() }
        }
        let classifier = Classifier(rules: rules)
        let width = max(rules.classNames.map(\.count).max() ?? 0, "errors".count) + 2
        for ua in uas {
            let explanation = classifier.explain(ua)
            let shown = TerminalText.escape(ReportText.render(ua), limit: 200)
            console.out(explanation.className.padded(width) + (ua.isEmpty ? "(empty)" : shown) + "\n")
            if let failure = explanation.failure, let pattern = explanation.pattern {
                console.out(String(repeating: " ", count: width) + "pattern \(pattern) failed: \(failure)\n")
            } else if let pattern = explanation.pattern {
                console.out(
                    String(repeating: " ", count: width) + "rule \(explanation.className), pattern \(pattern)\n")
            } else if explanation.className == "other" {
                console.out(String(repeating: " ", count: width) + "no rule matched\n")
            } else {
                console.out(String(repeating: " ", count: width) + "no UA (empty or '-')\n")
            }
        }
        return .success
    }
}
