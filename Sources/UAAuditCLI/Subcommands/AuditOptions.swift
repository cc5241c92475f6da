import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// The options that choose the log format and the rules, shared by `scan` and `classify`.
struct AuditOptions {
    static let formatName = OptionDef(
        "format", value: "NAME",
        help: [
            "built-in format: ua_log (default) or combined; with",
            "--nginx-conf, the name of a log_format in that file",
        ],
        defaultValue: "ua_log", configKey: "format.name", completion: .choices(["ua_log", "combined"]))
    static let logFormat = OptionDef(
        "log-format", value: "STRING", help: ["an nginx log_format string (quote it for the shell)"],
        configKey: "format.string")
    static let escape = OptionDef(
        "escape", value: "MODE", help: ["escaping of --log-format values: default, json, none"],
        defaultValue: "default", configKey: "format.escape", completion: .choices(EscapeMode.allCases.map(\.rawValue)))
    static let nginxConf = OptionDef(
        "nginx-conf", value: "PATH", help: ["read the log_format --format NAME from nginx.conf"],
        configKey: "format.nginx_conf", completion: .file)
    static let rulesFile = OptionDef(
        "rules", value: "FILE", help: ["JSON rules replacing the built-in ones (see rules/)"], configKey: "rules",
        completion: .file)

    static let formatOptions = [formatName, logFormat, escape, nginxConf]
    static let ruleOptions = [rulesFile]

    static let formatHelp = OptionHelp.render(formatOptions)
    static let rulesHelp = OptionHelp.render(ruleOptions)

    /// Compiles the format options.
    static func format(_ args: Arguments) throws(CLIError) -> LogFormat {
        var escapeMode: EscapeMode?
        if let text = args.value(escape) {
            guard args.value(logFormat) != nil else {
                throw CLIError(
                    "\(escape.flag) goes with \(logFormat.flag) (a config's log_format names its own escape=)")
            }
            guard let mode = EscapeMode(rawValue: text) else {
                throw CLIError("\(escape.flag) takes default, json or none, not '\(text)'")
            }
            escapeMode = mode
        }
        if args.value(logFormat) != nil, args.value(nginxConf) != nil {
            throw CLIError("give either \(logFormat.flag) or \(nginxConf.flag), not both")
        }
        let choice = RunConfig.FormatChoice(
            name: args.value(formatName), string: args.value(logFormat), escape: escapeMode,
            nginxConf: args.value(nginxConf))
        do {
            return try choice.compile()
        } catch {
            throw CLIError(String(describing: error))
        }
    }

    static func rules(_ args: Arguments) throws(CLIError) -> RuleSet {
        guard let path = args.value(rulesFile) else { return RuleSet.builtin() }
        do {
            return try RulesFile.load(path: path)
        } catch {
            throw CLIError(error.description)
        }
    }
}
