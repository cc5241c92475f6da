import UAAuditCore

/// The first phase of option parsing: words into named values, with no I/O and no meaning yet.
///
/// Accepts `--name value`, `--name=value`, flags, short aliases, `--` and `-`; a valued option
/// given twice is an error unless it is ``repeatable``.
struct Arguments {
    struct Spec {
        let name: String
        let short: Character?
        let takesValue: Bool
    }

    /// The valued options that may be given more than once: a channel each, a bundle each.
    static let repeatable: Set<String> = ["webhook", "webhook-kind", "webhook-secret-env", "webhook-secret-file", "bundle"]

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []
    /// Every valued option in command-line order, for options that pair up (`--webhook` and
    /// the `--webhook-kind` after it).
    private(set) var ordered: [(name: String, value: String)] = []

    init(_ words: [String], specs: [Spec]) throws(CLIError) {
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
            var name: String
            var inline: String?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                guard word.count == 2, let spec = specs.first(where: { $0.short == word.last }) else {
                    throw CLIError("unknown option \(word); see --help")
                }
                name = spec.name
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                if let closest = Suggestion.closest(to: name, among: specs.map(\.name)) {
                    throw CLIError("unknown option --\(name); did you mean --\(closest)? see --help")
                }
                // An option of another command, given to this one.
                let owners = UAAuditCLI.optionsByCommand.filter { $0.specs.contains { $0.name == name } }.map(\.command)
                if !owners.isEmpty {
                    throw CLIError(
                        "unknown option --\(name); --\(name) is an option of \(owners.joined(separator: " and ")), not of this command; see --help"
                    )
                }
                throw CLIError("unknown option --\(name); see --help")
            }
            if spec.takesValue {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < words.count else { throw CLIError("--\(name) needs a value; see --help") }
                    value = words[i]
                    i += 1
                }
                if let earlier = values[name]?.first, !Self.repeatable.contains(name) {
                    // The last one used to win in silence: a pasted command could change a setting unseen.
                    throw CLIError(
                        "--\(name) is given twice ('\(earlier)' and '\(value)'); give it once (see --help)")
                }
                values[name, default: []].append(value)
                ordered.append((name, value))
            } else {
                if inline != nil { throw CLIError("--\(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`.
    func value(_ name: String) -> String? { values[name]?.last }

    /// A numeric option whose range the config's key shares (``ConfigValues``).
    func integer(_ limit: ConfigValues.Limit) throws(CLIError) -> Int? {
        try integer(limit.flag, range: Int(limit.range.lowerBound)...Int(limit.range.upperBound))
    }

    func integer(_ name: String, range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw CLIError(
                "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }
}
