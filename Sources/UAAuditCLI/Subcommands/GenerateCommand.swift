import UAAuditInput

/// `uaaudit generate man|bash|zsh`: the man page and the shell completions, made from the
/// option declarations, on stdout (for packaging: `uaaudit generate man > uaaudit.1`).
struct GenerateCommand {
    static let options = [CommonOptions.help]
    static let outputs = ["man", "bash", "zsh"]

    static let spec = CommandSpec(
        "generate", label: "generate man|bash|zsh", summary: ["print the man page or a completion script"],
        usage: ["uaaudit generate man|bash|zsh"],
        about: """
            Prints uaaudit(1), the man page (roff), or the completion script for bash
            (/usr/share/bash-completion/completions/uaaudit) or zsh
            (/usr/share/zsh/vendor-completions/_uaaudit), made from the same option
            declarations as the parser and every --help.
            """, options: options, actions: outputs)

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(OptionHelp.render(options))

        Examples:
          uaaudit generate man > uaaudit.1 && man -l uaaudit.1
          uaaudit generate bash > /usr/share/bash-completion/completions/uaaudit

        \(ExitCode.helpText(for: [.success, .usage]))
        """

    let console: Console

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: GenerateCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) {
            console.out(GenerateCommand.help + "\n")
            return .success
        }
        guard args.positional.count == 1, let what = args.positional.first else {
            console.error("usage: uaaudit generate man|bash|zsh")
            return .usage
        }
        switch what {
        case "man": console.out(ManPage.render(version: UAAuditCLI.version))
        case "bash": console.out(BashCompletion.render())
        case "zsh": console.out(ZshCompletion.render())
        default:
            let guess = Suggestion.closest(to: what, among: GenerateCommand.outputs).map { "; did you mean '\($0)'?" }
            console.error("cannot generate '\(what)'\(guess ?? ";") usage: uaaudit generate man|bash|zsh")
            return .usage
        }
        return .success
    }
}
