import FoundationEssentials
import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// `uaaudit doctor`: reads nginx's configuration as nginx does, lists its access logs and their
/// formats, checks that the logs are readable and their last lines parse, and says what to use.
struct DoctorCommand {
    static let nginxConf = OptionDef(
        AuditOptions.nginxConf.name, value: "PATH", help: ["read this nginx.conf (and its includes)"], completion: .file
    )
    static let nginx = OptionDef(
        "nginx", value: "BINARY",
        help: ["the nginx to run 'BINARY -T' with (default: nginx", "on PATH, then /usr/sbin/nginx)"],
        completion: .file)
    static let writeConfig = OptionDef(
        "write-config", value: "FILE", help: ["write the uaaudit config it prints to FILE"], completion: .file)
    static let stateDir = OptionDef(
        "state-dir", value: "DIR", help: ["state, report and lock in DIR (default", "/var/lib/uaaudit)"],
        defaultValue: "/var/lib/uaaudit", completion: .directory)
    static let prom = OptionDef(
        PolicyOptions.prom.name, value: "FILE",
        help: ["node_exporter textfile (default", "/var/lib/prometheus/node-exporter/uaaudit.prom)"],
        defaultValue: "/var/lib/prometheus/node-exporter/uaaudit.prom", completion: .file)
    static let lines = OptionDef(Settings.doctorLines, value: "N", help: ["last lines of each log to check"])
    static let sample = OptionDef(
        Settings.doctorSample, value: "N", help: ["last lines of each log read for the apps in", "the traffic"],
        note: "; 0: none")
    static let app = OptionDef(
        "app", value: "NAME",
        help: ["your app, as it names itself in its UA: its rules", "are written whatever the traffic holds"])
    static let bundle = OptionDef(
        "bundle", value: "NAME", help: ["a bundle name of the app's defaults (rules init)"], repeatable: true)
    static let rules = AuditOptions.rulesFile.described([
        "try the app's UAs in FILE (its examples, and the", "log's UAs it classes) against nginx's own UA rules",
    ])
    static let config = OptionDef(
        "config", value: "FILE", help: ["as --rules, with the rules a uaaudit config names"], completion: .file)
    static let json = OptionDef("json", help: ["print what doctor found as one JSON object"])
    static let options = [
        nginxConf, nginx, writeConfig, stateDir, prom, lines, sample, app, bundle, rules, config, json,
        CommonOptions.help,
    ]

    static let spec = CommandSpec(
        "doctor", label: "doctor [-]",
        summary: [
            "read nginx's config (nginx -T): which logs, which format,",
            "what to put in uaaudit's config or add to nginx",
        ],
        usage: [
            "nginx -T | uaaudit doctor -", "uaaudit doctor [--nginx BINARY]        (runs 'nginx -T' itself)",
            "uaaudit doctor --nginx-conf /etc/nginx/nginx.conf",
        ],
        about: """
            Reads nginx's configuration as nginx does (include followed relative to the
            main file's directory, globs in sorted order, cycles rejected; the predefined
            'combined' format known), lists every access_log with its format and whether
            that format carries what the audit needs (the UA and a time; the path, the
            status and a client key for the cost and split-client figures), checks that
            each log is readable and that its last lines parse, and prints what to use:
            a uaaudit config (--write-config writes it) and the cron line; or, when no
            format fits, the log_format and access_log lines to add to nginx.
            It finds your app in the logs' last --sample lines by its UAs' shapes
            (NAME/VERSION (iPhone; iOS ...), NAME/BUILD CFNetwork/... Darwin/..., a
            WKWebView ending in NAME/VERSION): when one app has 3 times the requests of
            the next (and 1% of all, and 10, and no other has more clients), its rules
            (rules init) go to rules.json beside the --write-config file, and the config
            names them; otherwise the apps are listed and --app NAME chooses.
            Then it tries the app's UAs (the rules' examples and the most frequent UAs of
            each class in those lines; the rules of --rules, of --config's config, or
            the ones it writes) against nginx's own UA rules, evaluated as nginx does:
            maps on the UA (exact keys, then regexes in order, then default; chains of
            maps), if ($http_user_agent ...) and if on map and set variables, return
            codes and limit_req/limit_conn zones keyed on them, in every server and
            location. Each rule that refuses one of the app's UAs is named with its
            file:line (the original file's, from nginx -T too), the if and return that
            act on it, the server and location, the UAs and what the log shows of them.
            These are advice: they do not change the exit status.
            """, options: options, actions: ["-"])

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(OptionHelp.render(options))

        \(ExitCode.helpText(for: [.success, .usage, .input, .output, .formatMismatch]))
          (3: a log could not be read; 8: no access_log has a format with the UA and
          a time, or a log's last lines do not parse in its format)
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: DoctorCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) {
            console.out(DoctorCommand.help + "\n")
            return .success
        }
        let lineCount: Int
        let sampleCount: Int
        do {
            lineCount = try args.number(Self.lines)
            sampleCount = try args.number(Self.sample)
        } catch {
            console.error(error.message)
            return .usage
        }
        // lstat: a link (even a dangling one) is a file that exists.
        if let path = args.value(Self.writeConfig), (try? Syscalls.linkStatus(path)) != nil {
            // Never over an existing file: it may be the config in use (its rules and alerts
            // would be lost), or one of the files doctor reads (a log, nginx.conf).
            console.error(
                "--write-config \(path): the file exists and doctor does not overwrite files; "
                    + "write to a new path and compare, or move the old file away first")
            return .usage
        }
        if args.value(Self.rules) != nil, args.value(Self.config) != nil {
            console.error("give either --rules FILE or --config FILE (whose rules doctor tries), not both")
            return .usage
        }
        var givenRules: (rules: RuleSet, source: String)?
        do throws(CLIError) {
            givenRules = try Self.givenRules(args)
        } catch {
            console.error(error.message)
            return .usage
        }
        let rulesPath = AppDiagnosis.rulesPath(
            besideConfig: args.value(Self.writeConfig),
            workingDirectory: FileManager.default.currentDirectoryPath)
        if let path = args.value(Self.writeConfig), path != "-",
            AppDiagnosis.rulesPath(besideConfig: path, workingDirectory: FileManager.default.currentDirectoryPath)
                == (path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        {
            console.error(
                "--write-config \(path): doctor writes the app's rules to rules.json beside the config; "
                    + "give the config another name, such as uaaudit.json (nothing was written)")
            return .usage
        }
        if args.value(Self.writeConfig) != nil, givenRules == nil, (try? Syscalls.linkStatus(rulesPath)) != nil {
            console.error(
                "--write-config: \(rulesPath) exists and doctor writes the app's rules there; it does not "
                    + "overwrite files: write the config to another directory, or move the old rules away first")
            return .usage
        }
        if let path = args.value(Self.writeConfig) {
            // Through a directory another user planted a link in: refused before anything is read.
            do {
                _ = try OutputGuard.resolve(
                    [.init(Self.writeConfig.flag, path), .init("the rules beside it", rulesPath)], json: false)
            } catch {
                console.error(error.message)
                return .usage
            }
        }
        let tree: NginxConfigTree
        do {
            if let path = args.value(Self.nginxConf) {
                if !args.positional.isEmpty {
                    console.error("give either --nginx-conf PATH or '-' (nginx -T output on stdin), not both")
                    return .usage
                }
                tree = try NginxSource.file(path).load()
            } else if args.positional == ["-"] {
                tree = try NginxSource.standardInput.load()
            } else if args.positional.isEmpty {
                guard let dump = runNginxT(args.value(Self.nginx)) else { return .usage }
                tree = try NginxSource.dump(dump).load()
            } else {
                console.error("doctor takes '-' (nginx -T output on stdin) or no argument, not '\(args.positional[0])'")
                return .usage
            }
        } catch {
            console.error(String(describing: error))
            return .usage
        }
        let diagnosis = DoctorDiagnosis.diagnose(
            tree, lastLines: lineCount, sampleLines: sampleCount, app: args.value(Self.app),
            bundles: args.all(Self.bundle), rulesPath: rulesPath, givenRules: givenRules)
        var examination = DoctorReport(diagnosis: diagnosis)
        examination.stateDir = args.value(Self.stateDir) ?? "/var/lib/uaaudit"
        examination.prom = args.value(Self.prom) ?? "/var/lib/prometheus/node-exporter/uaaudit.prom"
        examination.packaged = DoctorReport.isPackaged(environment: environment)
        examination.givenRules = givenRules.map { ExplainLinks.absolute($0.source) }
        if args.flag(Self.json) {
            console.out(examination.json())
        } else {
            // Paths and names come from nginx's config: control bytes in them are shown escaped.
            console.out(TerminalText.escapeKeepingLines(examination.render()))
        }
        if let path = args.value(Self.writeConfig) {
            guard let config = examination.configJSON() else {
                console.error("no config written to \(path): no access_log has a format to audit (see above)")
                return .formatMismatch
            }
            // The rules first: the config never names a file that is not there.
            if examination.givenRules == nil, let apps = examination.apps, let rules = apps.rulesFile {
                guard let bytes = try? rules.encoded(),
                    OutputFile.write(bytes, to: apps.rulesPath, what: "rules", console: console)
                else {
                    console.error("no config written to \(path): its rules could not be written")
                    return .output
                }
                console.note("wrote \(apps.rulesPath) (rules for \(apps.chosen?.name ?? ""))")
            }
            guard OutputFile.write(Array(config.utf8), to: path, what: "uaaudit config", console: console) else {
                return .output
            }
            console.note("wrote \(path)")
        }
        return examination.status
    }

    /// The rules of `--rules FILE`, or of the config `--config FILE` names; nil for neither.
    static func givenRules(_ args: Arguments) throws(CLIError) -> (rules: RuleSet, source: String)? {
        if let path = args.value(rules) {
            do {
                return (try RulesFile.load(path: path), path)
            } catch {
                throw CLIError(error.description)
            }
        }
        guard let path = args.value(config) else { return nil }
        let loaded: RunConfig
        do {
            loaded = try RunConfig.load(path: path)
        } catch {
            throw CLIError(String(describing: error))
        }
        guard let rulesPath = loaded.rules else {
            throw CLIError(
                "--config \(path) names no \"rules\": its audit uses the built-in example rules, written for "
                    + "an app called MyApp; give the app's rules with --rules FILE")
        }
        do {
            return (try RulesFile.load(path: rulesPath), rulesPath)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// Runs `nginx -T`; nil (after saying why) when it cannot.
    private func runNginxT(_ binary: String?) -> [UInt8]? {
        let candidates =
            binary.map { [$0] }
            ?? ((environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin").split(separator: ":").map { "\($0)/nginx" }
                + ["/usr/sbin/nginx"])
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            console.error(
                "cannot find nginx to run 'nginx -T'; give --nginx BINARY, --nginx-conf PATH, or pipe it: nginx -T | uaaudit doctor -"
            )
            return nil
        }
        let child: ChildProcess
        do throws(ChildProcess.Failure) {
            child = try ChildProcess.run(path, arguments: ["-T"])
        } catch {
            switch error {
            case .noTemporaryFile(let directory):
                console.error("cannot create a temporary file for nginx's messages in \(directory)")
            case .cannotStart(let reason):
                console.error("cannot run \(path) -T: \(reason)")
            }
            return nil
        }
        guard child.status == 0 else {
            console.error(
                "\(path) -T failed (status \(child.status)): "
                    + String(decoding: child.messages, as: UTF8.self).trimmed(newlines: true)
                    + "; nginx -T usually needs root: sudo nginx -T | uaaudit doctor -")
            return nil
        }
        return child.output
    }
}
