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
        let name = args.value("format")
        do {
            if let string = args.value("log-format") {
                if args.value("nginx-conf") != nil {
                    throw CLIError("give either --log-format or --nginx-conf, not both")
                }
                let escapeText = args.value("escape") ?? "default"
                guard let escape = EscapeMode(rawValue: escapeText) else {
                    throw CLIError("--escape takes default, json or none, not '\(escapeText)'")
                }
                return try LogFormat(string, escape: escape, name: name)
            }
            if args.value("escape") != nil {
                throw CLIError("--escape goes with --log-format (a config's log_format names its own escape=)")
            }
            if let conf = args.value("nginx-conf") {
                guard let name else { throw CLIError("--nginx-conf needs --format NAME: which log_format to read") }
                return try NginxConfig.logFormat(named: name, path: conf)
            }
            return try BuiltinFormats.named(name ?? "ua_log")
        } catch let error as FormatError {
            throw CLIError(error.description)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(error)")
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
