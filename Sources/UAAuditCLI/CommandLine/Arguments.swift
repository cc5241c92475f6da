import UAAuditInput
import UAAuditRun

/// The first phase of option parsing: words into named values, with no I/O and no meaning yet.
///
/// Accepts `--name value`, `--name=value`, flags, short forms (`-o FILE`, `-oFILE`, and several
/// in one word: `-qj2` is `-q -j 2`), `--` and `-`. An option given twice is an error unless it
/// is declared repeatable.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []
    /// Every valued option in command-line order, for options that pair up (`--webhook` and
    /// the `--webhook-kind` after it).
    private(set) var ordered: [(option: OptionDef, value: String)] = []

    init(_ words: [String], options: [OptionDef]) throws(CLIError) {
        var i = 0
        var optionsEnded = false
        while i < words.count {
            let word = words[i]
            i += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                positional.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if !word.hasPrefix("--") {
                // A long name after one dash (`-webhook=URL`) would read as letters: refuse it.
                let name = word.dropFirst().prefix { $0 != "=" }
                if name.count > 1, options.contains(where: { $0.name == name }) {
                    throw CLIError("unknown option \(Self.shown(word)); did you mean --\(name)? see --help")
                }
                // Short forms: flags, then at most one valued option, which takes the rest of
                // the word or the next word.
                var rest = Substring(word.dropFirst())
                while let letter = rest.first {
                    rest = rest.dropFirst()
                    guard let option = options.first(where: { $0.short == letter }) else {
                        throw Self.unknown(letter, in: word)
                    }
                    guard option.takesValue else {
                        flags.insert(option.name)
                        continue
                    }
                    if rest.isEmpty {
                        guard i < words.count else { throw CLIError("-\(letter) needs a value; see --help") }
                        try add(option, words[i])
                        i += 1
                    } else if rest.first == "=" {
                        // `-o=FILE` is not `-o FILE`: it would write a file named `=FILE`.
                        throw CLIError(
                            "-\(letter)=VALUE is not understood; write -\(letter) VALUE or \(option.flag)=VALUE (see --help)"
                        )
                    } else {
                        try add(option, String(rest))
                    }
                    break
                }
                continue
            }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw Self.unknown(name, among: options)
            }
            if option.takesValue {
                if let inline {
                    try add(option, inline)
                } else {
                    guard i < words.count else { throw CLIError("--\(name) needs a value; see --help") }
                    try add(option, words[i])
                    i += 1
                }
            } else {
                if inline != nil { throw CLIError("--\(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    private mutating func add(_ option: OptionDef, _ value: String) throws(CLIError) {
        if value.isEmpty, option.completion == .file || option.completion == .directory {
            let what = option.completion == .file ? "a file name" : "a directory name"
            throw CLIError("\(option.flag) needs \(what), not an empty value; see --help")
        }
        if !option.repeatable, let earlier = values[option.name]?.first {
            throw CLIError(
                "\(option.flag) is given twice ('\(earlier)' and '\(value)'); give it once (see --help)")
        }
        values[option.name, default: []].append(value)
        ordered.append((option, value))
    }

    /// A single-dash word as a message shows it: never its value (it may be a secret, as in
    /// `-webhook=URL`), only up to `=`, escaped and cut to 40 characters.
    private static func shown(_ word: String) -> String {
        let name = String(word.prefix { $0 != "=" })
        return TerminalText.escape(name, limit: 40) + (name.count < word.count ? "=…" : "")
    }

    /// A group of short options as a message shows it: up to the unknown letter, never what
    /// follows it (`-whttps://h/TOKEN` was `-w` and a value: a secret, perhaps).
    private static func shown(_ word: String, upTo letter: Character) -> String {
        let body = word.dropFirst()
        guard let at = body.firstIndex(of: letter) else { return "-\(letter)…" }
        let rest = body[body.index(after: at)...]
        return TerminalText.escape("-" + body[...at], limit: 40) + (rest.isEmpty ? "" : "…")
    }

    /// An unknown short option: the word it was in (up to that letter), or the commands whose
    /// option it is.
    private static func unknown(_ letter: Character, in word: String) -> CLIError {
        let within = word.count > 2 ? " (in \(shown(word, upTo: letter)))" : ""
        let owners = CommandSpec.all.filter { $0.options.contains { $0.short == letter } }
        let names = Set(owners.flatMap { $0.options.filter { $0.short == letter }.map(\.flag) }).sorted()
        if !owners.isEmpty {
            return CLIError(
                "unknown option -\(letter)\(within); -\(letter) is an option of "
                    + "\(Self.list(owners.map(\.name))) (\(names.joined(separator: ", "))), "
                    + "not of this command; see --help")
        }
        return CLIError("unknown option -\(letter)\(within); see --help")
    }

    /// An unknown long option: the closest name, or the commands whose option it is.
    private static func unknown(_ name: String, among options: [OptionDef]) -> CLIError {
        if let closest = Suggestion.closest(to: name, among: options.map(\.name)) {
            return CLIError("unknown option --\(name); did you mean --\(closest)? see --help")
        }
        // An option of another command, given to this one.
        let owners = CommandSpec.all.filter { $0.options.contains { $0.name == name } }.map(\.name)
        if !owners.isEmpty {
            return CLIError(
                "unknown option --\(name); --\(name) is an option of \(Self.list(owners)), not of this command; see --help"
            )
        }
        return CLIError("unknown option --\(name); see --help")
    }

    func flag(_ option: OptionDef) -> Bool { flags.contains(option.name) }

    /// Whether `option` was given at all (a flag, or with a value).
    func given(_ option: OptionDef) -> Bool { flags.contains(option.name) || values[option.name] != nil }

    /// The value given for `option`.
    func value(_ option: OptionDef) -> String? { values[option.name]?.last }

    /// Every value given for a repeatable option, in order.
    func all(_ option: OptionDef) -> [String] { values[option.name] ?? [] }

    /// The value given for the option of a numeric setting, in the setting's range; nil when
    /// the option was not given.
    func integer(_ option: OptionDef) throws(CLIError) -> Int? {
        guard let setting = option.setting else { preconditionFailure("\(option.flag) sets no number") }
        return try integer(option, range: Int(setting.range.lowerBound)...Int(setting.range.upperBound))
    }

    /// The value of a numeric setting: the option's when given, else the config's, else the
    /// setting's default (the one place defaults come from).
    func number(_ option: OptionDef, config: Int? = nil) throws(CLIError) -> Int {
        try integer(option) ?? config ?? option.setting!.defaultInt
    }

    func integer(_ option: OptionDef, range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw CLIError(
                "\(option.flag) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// `run`, `run and state`, `run, state and alert`.
    private static func list(_ names: [String]) -> String {
        names.count <= 2
            ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
