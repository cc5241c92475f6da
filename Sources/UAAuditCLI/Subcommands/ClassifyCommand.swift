import FoundationEssentials
import UAAuditAudit
import UAAuditInput

/// `uaaudit classify`: which class a UA gets, and which rule and pattern gave it.
struct ClassifyCommand {
    static let json = OptionDef(
        "json",
        help: [
            "one JSON object a line: {\"ua\", \"class\", \"rule\",", "\"pattern\"}; rule and pattern are null when no",
            "rule matched; a UA's bytes that are not UTF-8", "are written \\xHH, as in reports",
        ])
    static let options = AuditOptions.ruleOptions + [json, CommonOptions.help]

    static let spec = CommandSpec(
        "classify", label: "classify UA...", summary: ["show which class and rule a User-Agent gets"],
        usage: ["uaaudit classify [--rules FILE] UA...", "some-command | uaaudit classify [--rules FILE]"],
        about: """
            Prints the class of each User-Agent given as an argument, or of each line of
            stdin when none is given, with the rule and the pattern that matched. UAs are
            taken as nginx received them (not escaped). Stdin is read and answered line by
            line, in constant memory: it can be a pipe that never ends. A line longer
            than 64 KiB is reported by its length and not classified.
            """, options: options)

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(AuditOptions.rulesHelp)
        \(OptionHelp.render([json, CommonOptions.help]))

        Examples:
          uaaudit classify 'App/1 CFNetwork/1494.0.7 Darwin/23.4.0'
          uaaudit classify --rules rules/ios-defaults.json < uas.txt
          uaaudit classify --json < uas.txt | jq -r 'select(.class == "other") | .ua'

        \(ExitCode.helpText(for: [.success, .usage, .input]))
        """

    let console: Console

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        let rules: RuleSet
        do {
            args = try Arguments(words, options: ClassifyCommand.options)
            if args.flag(CommonOptions.help) {
                console.out(ClassifyCommand.help + "\n")
                return .success
            }
            rules = try AuditOptions.rules(args)
        } catch {
            console.error(error.message)
            return .usage
        }
        let output = BufferedOutput(console: console)
        let printer = ClassifyPrinter(rules: rules, output: output, json: args.flag(Self.json))
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
    /// `--json`: each line's text up to the UA's value, per rule and pattern, for `other` and
    /// for `missing`, made once (`{"class":…,"pattern":…,"rule":…,"ua":`).
    private let jsonHeads: [[[UInt8]]]
    private let otherHead: [UInt8]
    private let missingHead: [UInt8]
    static let shownLimit = 200

    /// JSON lines instead of the two-line text.
    let json: Bool

    init(rules: RuleSet, output: BufferedOutput, json: Bool = false) {
        self.json = json
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
        jsonHeads = rules.rules.map { rule in
            rule.patterns.map {
                ClassifyLine(ua: nil, class: rule.name, rule: rule.name, pattern: $0.source).head()
            }
        }
        otherHead = ClassifyLine(ua: nil, class: rules.classNames[rules.otherIndex], rule: nil, pattern: nil).head()
        missingHead = ClassifyLine(ua: nil, class: rules.classNames[rules.missingIndex], rule: nil, pattern: nil).head()
    }

    func print(_ ua: RawSpan) {
        if json {
            printJSON(ua)
            return
        }
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

    /// One line `{"class":…,"pattern":…,"rule":…,"ua":…}` (keys sorted, as in reports).
    private func printJSON(_ ua: RawSpan) {
        let head: [UInt8]
        if Classifier.isMissing(ua) {
            head = missingHead
        } else if let match = classifier.firstMatch(ua) {
            head = match.rule < jsonHeads.count ? jsonHeads[match.rule][match.pattern] : otherHead
        } else {
            printJSONError(ua)
            return
        }
        output.append(head)
        // Printable ASCII without '"' or '\\' (almost every UA) is its own JSON string.
        let plain = ua.withUnsafeBytes { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } }
        if plain {
            output.append([0x22])
            output.append(ua)
            output.append([0x22])
        } else {
            var quoted: [UInt8] = []
            JSONValue.writeString(ReportText.render(ua.withUnsafeBytes { Array($0) }), to: &quoted)
            output.append(quoted)
        }
        output.append([0x7D, 0x0A])
    }

    /// The line of a UA a pattern could not finish on, with the pattern and its message.
    private func printJSONError(_ ua: RawSpan) {
        let bytes = ua.withUnsafeBytes { Array($0) }
        let text = ReportText.render(bytes)
        var line: ClassifyLine
        if Classifier.isMissing(ua) {
            line = ClassifyLine(ua: text, class: rules.classNames[rules.missingIndex], rule: nil, pattern: nil)
        } else if let match = classifier.firstMatch(ua) {
            let rule = match.rule < rules.rules.count ? rules.rules[match.rule] : nil
            line = ClassifyLine(
                ua: text, class: rules.classNames[match.rule], rule: rule?.name,
                pattern: rule?.patterns[match.pattern].source)
        } else {
            let explanation = classifier.explain(bytes)
            line = ClassifyLine(ua: text, class: "errors", rule: nil, pattern: explanation.pattern)
            line.error = explanation.failure
        }
        output.append(line.encoded())
    }

    func printOverlong(length: Int) {
        if json {
            var line = ClassifyLine(ua: nil, class: "errors", rule: nil, pattern: nil)
            line.error = "a line of \(length) bytes, over the \(UALines.maxLineBytes)-byte limit: not classified"
            output.append(line.encoded())
            return
        }
        output.append(errorsColumn)
        output.append("(a line of \(length) bytes, over the \(UALines.maxLineBytes)-byte limit: not classified)\n")
        output.append(String(repeating: " ", count: width) + "not classified\n")
    }

    /// The UA and its newline: as it is when it is printable ASCII that fits, else escaped and cut.
    private func showUA(_ ua: RawSpan) {
        let printable =
            ua.byteCount <= ClassifyPrinter.shownLimit
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

/// One line of `classify --json`; absent values are written as null, so every line has the
/// same keys (`error` only when the UA could not be classified).
struct ClassifyLine: Encodable {
    var ua: String?
    var `class`: String
    var rule: String?
    var pattern: String?
    var error: String?

    enum CodingKeys: String, CodingKey { case ua, `class`, rule, pattern, error }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ua, forKey: .ua)
        try c.encode(`class`, forKey: .class)
        try c.encode(rule, forKey: .rule)
        try c.encode(pattern, forKey: .pattern)
        try c.encodeIfPresent(error, forKey: .error)
    }

    /// The line as `JSONEncoder` with sorted keys and unescaped slashes writes it, written
    /// directly: an encoder per line made `--json` 5–22× slower than the text output.
    func encoded() -> [UInt8] {
        var out = head()
        if let ua { JSONValue.writeString(ua, to: &out) } else { out += Array("null".utf8) }
        out += [UInt8(ascii: "}"), 0x0A]
        return out
    }

    /// The line up to the UA's value: `{"class":…,"error":…,"pattern":…,"rule":…,"ua":`.
    func head() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + (pattern?.utf8.count ?? 0))
        func member(_ key: String, _ value: String?, first: Bool = false) {
            if !first { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            if let value { JSONValue.writeString(value, to: &out) } else { out += Array("null".utf8) }
        }
        out.append(UInt8(ascii: "{"))
        member("class", `class`, first: true)
        if let error { member("error", error) }
        member("pattern", pattern)
        member("rule", rule)
        out += Array(",\"ua\":".utf8)
        return out
    }
}
