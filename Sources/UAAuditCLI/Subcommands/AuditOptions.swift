import UAAuditCore

/// The options that choose the log format and the rules, shared by `scan` and `classify`.
struct AuditOptions {
    static let formatSpecs: [Arguments.Spec] = [
        .init(name: "format", short: nil, takesValue: true),
        .init(name: "log-format", short: nil, takesValue: true),
        .init(name: "escape", short: nil, takesValue: true),
        .init(name: "nginx-conf", short: nil, takesValue: true),
    ]
    static let ruleSpecs: [Arguments.Spec] = [.init(name: "rules", short: nil, takesValue: true)]

    static let formatHelp = """
              --format NAME        built-in format: ua_log (default) or combined; with
                                   --nginx-conf, the name of a log_format in that file
              --log-format STRING  an nginx log_format string (quote it for the shell)
              --escape MODE        escaping of --log-format values: default, json, none
              --nginx-conf PATH    read the log_format --format NAME from nginx.conf
        """
    static let rulesHelp = """
              --rules FILE         JSON rules replacing the built-in ones (see rules/)
        """

    /// Compiles the format options.
    static func format(_ args: Arguments) throws(CLIError) -> LogFormat {
        var escape: EscapeMode?
        if let text = args.value("escape") {
            guard args.value("log-format") != nil else {
                throw CLIError("--escape goes with --log-format (a config's log_format names its own escape=)")
            }
            guard let mode = EscapeMode(rawValue: text) else {
                throw CLIError("--escape takes default, json or none, not '\(text)'")
            }
            escape = mode
        }
        if args.value("log-format") != nil, args.value("nginx-conf") != nil {
            throw CLIError("give either --log-format or --nginx-conf, not both")
        }
        let choice = RunConfig.FormatChoice(
            name: args.value("format"), string: args.value("log-format"), escape: escape,
            nginxConf: args.value("nginx-conf"))
        do {
            return try choice.compile()
        } catch {
            throw CLIError(String(describing: error))
        }
    }

    static func rules(_ args: Arguments) throws(CLIError) -> RuleSet {
        guard let path = args.value("rules") else { return RuleSet.builtin() }
        do {
            return try RulesFile.load(path: path)
        } catch {
            throw CLIError(error.description)
        }
    }
}
