import FoundationEssentials
import Glibc
import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// `uaaudit rules init|test|lint`: rules for the operator's own app, and rules files checked
/// against their examples and against real UAs.
struct RulesCommand {
    static let app = OptionDef(
        "app", value: "NAME",
        help: ["the name the app puts in its own UA", "(MyApp in 'MyApp/5.12.1 (iPhone; iOS 17.4.1)')"])
    static let bundle = OptionDef(
        "bundle", value: "NAME",
        help: [
            "a bundle name of the app or of an extension as", "iOS writes it in the default UA",
            "('MyApp Widget'); repeat it; the app's name is", "one already",
        ], repeatable: true)
    static let webviewToken = OptionDef(
        "webview-token", value: "TOKEN",
        help: ["what the app's WKWebView appends after the", "engine (applicationNameForUserAgent);", "default NAME"])
    static let out = OptionDef(
        "out", short: "o", value: "FILE", help: ["write the file instead of printing it"], completion: .file)
    static let options = [app, bundle, webviewToken, out, CommonOptions.help]

    static let spec = CommandSpec(
        "rules", label: "rules init|test|lint", summary: ["write rules for your app; test and lint rules files"],
        usage: [
            "uaaudit rules init --app NAME [--bundle NAME]... [options]",
            "uaaudit rules test FILE [UA-LIST | -]", "uaaudit rules lint FILE",
        ],
        about: """
            init   prints (or writes to --out) a rules file for your app: webview and
                   urlsession for its own UAs, inconsistent (the alert class) for its
                   stacks without its UA, and ambiguous, bot, spoofed, browser and
                   other_app for everybody else. The reasoning is in its comments, and
                   it carries examples for every class.
            test   checks the file's examples, and with a list of UAs (one per line, a
                   file or - for stdin) counts them per class and per rule and pattern.
            lint   flags failing examples, rules whose examples an earlier rule takes,
                   patterns that match none of their rule's examples, rules without
                   examples, and patterns that start with .*
            """, options: options, actions: ["init", "test", "lint"], operands: .file)

    /// The help's `init` paragraph, then its options, then `test` and `lint`.
    private static let aboutLines = spec.about.split(separator: "\n", omittingEmptySubsequences: false)

    static let help = """
        \(spec.usageText)

        \(aboutLines.prefix(5).joined(separator: "\n"))
        \(OptionHelp.render([app, bundle, webviewToken, out], margin: 9, shortMargin: 9, column: 32))
        \(aboutLines.dropFirst(5).joined(separator: "\n"))

        A rules file's examples are also checked every time it is loaded (scan, run,
        classify): a failing one is exit 2, naming it and the rule that took it.

        \(OptionHelp.render([CommonOptions.help]))

        \(ExitCode.helpText(for: [.success, .usage, .input, .output]))
          (test: 2 when an example fails; lint: 2 when it finds anything)
        """

    let console: Console

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: RulesCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) {
            console.out(RulesCommand.help + "\n")
            return .success
        }
        let rest = Array(args.positional.dropFirst())
        switch args.positional.first {
        case "init":
            guard rest.isEmpty else { return usage("rules init takes no file; write with --out FILE") }
            return initRules(args)
        case "test":
            if let misplaced = initOnly(args, action: "test") { return misplaced }
            guard (1...2).contains(rest.count) else { return usage("usage: uaaudit rules test FILE [UA-LIST | -]") }
            return test(path: rest[0], list: rest.count == 2 ? rest[1] : nil)
        case "lint":
            if let misplaced = initOnly(args, action: "lint") { return misplaced }
            guard rest.count == 1 else { return usage("usage: uaaudit rules lint FILE") }
            return lint(path: rest[0])
        case let action?:
            let guess = Suggestion.closest(to: action, among: ["init", "test", "lint"]).map {
                "; did you mean '\($0)'?"
            }
            return usage(
                "unknown rules action '\(action)'\(guess ?? ";") usage: uaaudit rules init|test|lint …; see uaaudit rules --help"
            )
        case nil:
            return usage("usage: uaaudit rules init|test|lint …; see uaaudit rules --help")
        }
    }

    /// The options only `rules init` takes, given to `test` or `lint`: named, with their owner.
    private func initOnly(_ args: Arguments, action: String) -> ExitCode? {
        guard let first = args.ordered.first else { return nil }
        return usage(
            "\(first.option.flag) belongs to rules init, not rules \(action); see uaaudit rules --help")
    }

    private func usage(_ message: String) -> ExitCode {
        console.error(message)
        return .usage
    }

    // MARK: init

    private func initRules(_ args: Arguments) -> ExitCode {
        guard let app = args.value(Self.app) else {
            return usage("rules init needs --app NAME: the name in your app's UA")
        }
        let file: RulesFile
        do {
            file = try RulesTemplate(
                app: app, bundles: args.all(Self.bundle), webviewToken: args.value(Self.webviewToken)
            ).file()
        } catch {
            return usage(error.description)
        }
        let bytes: [UInt8]
        do {
            bytes = try file.encoded()
        } catch {
            console.error("cannot encode the rules: \(error)")
            return .usage
        }
        // The file must pass its own examples: an app name that another class's pattern takes
        // (an app called 'Mozilla', say) is refused here rather than written.
        do {
            _ = try RulesFile.parse(bytes, path: args.value(Self.out) ?? "the rules for \(app)")
        } catch {
            return usage(error.description + "; choose other --app, --bundle or --webview-token values")
        }
        guard let given = args.value(Self.out) else {
            console.out(bytes: bytes)
            return .success
        }
        // Like scan's outputs: /dev/stdout is stdout, a link is followed, no device is replaced.
        let out: String
        do {
            out = try OutputGuard.resolve([.init(Self.out.flag, given)], json: false)[0].target
        } catch {
            return usage(error.message)
        }
        if out == "-" {
            console.out(bytes: bytes)
            return .success
        }
        guard OutputFile.write(bytes, to: out, what: "rules file", console: console) else { return .output }
        console.note("wrote \(out): rules for \(app); check them with: uaaudit rules test \(out) YOUR-UAS.txt")
        return .success
    }

    // MARK: test

    private func load(_ path: String) -> RuleSet? {
        do throws(RulesError) {
            // `rules test` reports failing examples itself, after the counts.
            return try RulesFile.load(path: path, checkingExamples: false)
        } catch {
            console.error(error.description)
            return nil
        }
    }

    private func test(path: String, list: String?) -> ExitCode {
        guard let rules = load(path) else { return .usage }
        let output = BufferedOutput(console: console)
        let failures = rules.failingExamples()
        output.append("examples: \(rules.examples.count - failures.count) of \(rules.examples.count) pass\n")
        for failure in failures { output.append("  FAIL " + TerminalText.escape(failure.description) + "\n") }
        var status: ExitCode = failures.isEmpty ? .success : .usage
        if let list {
            if let readStatus = countList(list, rules: rules, output: output), readStatus.rawValue > status.rawValue {
                status = readStatus
            }
        }
        output.flush()
        return status
    }

    /// Counts the UAs of `list` per class and per rule and pattern; returns an exit status when the list failed.
    private func countList(_ list: String, rules: RuleSet, output: BufferedOutput) -> ExitCode? {
        let classifier = Classifier(rules: rules)
        var byPattern = rules.rules.map { [Int](repeating: 0, count: $0.patterns.count) }
        var byClass = [Int](repeating: 0, count: rules.classCount)
        var errors = 0
        var total = 0
        do {
            try UALines.read(
                path: list, beforeWaiting: {},
                line: { ua in
                    total += 1
                    if Classifier.isMissing(ua) {
                        byClass[rules.missingIndex] += 1
                    } else if let m = classifier.firstMatch(ua) {
                        byClass[m.rule] += 1
                        if m.rule < byPattern.count { byPattern[m.rule][m.pattern] += 1 }
                    } else {
                        errors += 1
                    }
                },
                overlong: { _ in
                    total += 1
                    errors += 1
                })
        } catch {
            switch error {
            case .open(let error): console.error("cannot read UA list \(list): \(error.description)")
            case .read(let error): console.error(error.description)
            }
            return .input
        }
        output.append("\nUAs in \(list == "-" ? "stdin" : list): \(total)\n")
        let width = max(rules.classNames.map(\.count).max() ?? 0, "errors".count) + 2
        let classes = rules.classNames.enumerated().map { ($1, byClass[$0]) } + [("errors", errors)]
        for (name, n) in classes {
            output.append(
                "  " + name.padded(width) + String(n).rightAligned(9) + "  "
                    + HTMLReport.percent(total > 0 ? Double(n) / Double(total) : 0).rightAligned(8) + "\n")
        }
        output.append("\nby rule and pattern:\n")
        for (i, rule) in rules.rules.enumerated() {
            for (p, pattern) in rule.patterns.enumerated() {
                output.append(
                    "  " + rule.name.padded(width) + String(byPattern[i][p]).rightAligned(9) + "  "
                        + TerminalText.escape(pattern.source, limit: 160) + "\n")
            }
        }
        return nil
    }

    // MARK: lint

    private func lint(path: String) -> ExitCode {
        guard let rules = load(path) else { return .usage }
        let findings = RulesLint.findings(rules)
        let output = BufferedOutput(console: console)
        for finding in findings { output.append(TerminalText.escape(finding.description) + "\n") }
        output.append(
            findings.isEmpty
                ? "\(path): no findings (\(rules.rules.count) rules, \(rules.examples.count) examples)\n"
                : "\(path): \(findings.count) finding\(findings.count == 1 ? "" : "s")\n")
        output.flush()
        return findings.isEmpty ? .success : .usage
    }
}
