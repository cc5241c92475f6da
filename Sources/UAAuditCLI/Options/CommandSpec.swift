/// A subcommand, declared once: its usage, what it does and its options, for its `--help`, the
/// top-level help, the man page and the shell completions.
struct CommandSpec: Sendable {
    let name: String
    /// `scan FILE...`, as the top-level help lists the command.
    let label: String
    /// The top-level help's lines about the command.
    let summary: [String]
    /// The synopsis lines (`uaaudit scan [options] FILE...`).
    let usage: [String]
    /// What the command does, wrapped as `--help` shows it; paragraphs apart by a blank line.
    let about: String
    let options: [OptionDef]
    /// The words the first operand may be (`show` for `state`); empty when it is free.
    let actions: [String]
    /// What the other operands are, for the completions.
    let operands: OptionDef.Completion

    init(
        _ name: String, label: String, summary: [String], usage: [String] = [], about: String = "",
        options: [OptionDef] = [], actions: [String] = [], operands: OptionDef.Completion = .none
    ) {
        self.name = name
        self.label = label
        self.summary = summary
        self.usage = usage
        self.about = about
        self.options = options
        self.actions = actions
        self.operands = operands
    }

    /// `Usage: …` and its further lines, as `--help` opens.
    var usageText: String {
        usage.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + $0.element }.joined(separator: "\n")
    }

    /// The words the first operand may be: the actions, or for `help` the commands.
    var firstOperands: [String] { name == "help" ? CommandSpec.all.map(\.name) : actions }

    /// The commands in the order the top-level help lists them.
    static let all: [CommandSpec] = [
        ScanCommand.spec, ExplainCommand.spec, MergeCommand.spec, RunCommand.spec, StateCommand.spec,
        AlertCommand.spec, ClassifyCommand.spec, RulesCommand.spec, DoctorCommand.spec, GenerateCommand.spec,
        CommandSpec("help", label: "help [COMMAND]", summary: ["show help for a command"], usage: ["uaaudit help [COMMAND]"]),
        CommandSpec("version", label: "version", summary: ["print the version and the commit it was built from"], usage: ["uaaudit version"]),
    ]

    /// The top-level help's list of commands: each label, then its summary from column 20; a
    /// label too long for that puts its summary on the next line.
    static var listing: String {
        let indent = String(repeating: " ", count: 20)
        return all.map { spec in
            let label = "  " + spec.label
            let first =
                label.count <= 18
                ? [label + String(repeating: " ", count: 20 - label.count) + spec.summary[0]]
                : [label, indent + spec.summary[0]]
            return (first + spec.summary.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
