import FoundationEssentials
import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// `uaaudit run`'s options compiled: the config file first, flags over it.
struct RunJob {
    typealias R = RunCommand

    var settings: RunSettings
    var statePath: String
    var reportPath: String?
    var htmlPath: String?
    var promPath: String?
    var lockPath: String
    var lockWait: Double
    var channels: [AlertChannel]
    var delivery: DeliveryOptions
    /// The nginx config the format came from, for the format-mismatch hint.
    var nginxConf: String?
    /// True when the format came from the config file (the hint then names config keys).
    var formatFromConfig: Bool
    /// The options `uaaudit explain` needs to make the figures this run makes (from the flags or
    /// the config), before the logs: the format, the rules, the policy and the insight options.
    var explainOptions: [String]
    /// Warnings to print before the run (secret files others may read).
    var warnings: [String] = []

    static func compile(_ args: Arguments, environment: [String: String]) throws(CLIError) -> RunJob {
        var config = RunConfig()
        if let path = args.value(R.config) {
            do {
                config = try RunConfig.load(path: path)
            } catch {
                throw CLIError(error.description)
            }
        }
        let logs = args.positional.isEmpty ? (config.logs ?? []) : args.positional
        guard !logs.isEmpty else {
            throw CLIError("no logs to read; give LOG... or \"logs\" in the config (see run --help)")
        }
        if logs.contains("-") {
            throw CLIError("run reads log files by path; stdin ('-') has no position to resume from")
        }
        // One file under two spellings (a symlink, `./`, a repeated entry) would be read twice.
        var byFile: [String: String] = [:]
        for log in logs {
            let file = Syscalls.realPath(log) ?? log
            if let earlier = byFile[file] {
                throw CLIError(
                    earlier == log
                        ? "log \(log) is listed twice; list each log once"
                        : "logs \(earlier) and \(log) are the same file (\(file)); list each log once")
            }
            byFile[file] = log
        }
        guard let statePath = args.value(R.state) ?? config.state else {
            throw CLIError("run needs a state file: --state FILE or \"state\" in the config")
        }
        let format = try compileFormat(args, config.format)
        let rules: RuleSet
        if args.value(AuditOptions.rulesFile) != nil {
            rules = try AuditOptions.rules(args)
        } else if let path = config.rules {
            do {
                rules = try RulesFile.load(path: path)
            } catch {
                throw CLIError(error.description)
            }
        } else {
            rules = RuleSet.builtin()
        }
        var threshold = Threshold.standard
        if let text = args.value(R.threshold) {
            threshold = try ThresholdOption.parse(text, name: R.threshold.flag)
        } else if let text = config.threshold?.text {
            threshold = try ThresholdOption.parse(text, name: "config threshold")
        }
        let scan = ScanConfiguration(
            format: format, rules: rules, threshold: threshold,
            minRequests: Int64(try args.number(PolicyOptions.minRequests, config: config.minRequests.map { Int($0) })),
            top: try args.number(PolicyOptions.top, config: config.top), threads: 1,
            insight: try InsightOptions.settings(args, config: config.insight, format: format, rules: rules))
        var now = Int64(Date().timeIntervalSince1970)
        if let text = args.value(R.now) {
            guard let parsed = Instant.parse(text) else {
                throw CLIError(
                    "\(R.now.flag) takes an ISO-8601 time such as 2026-11-29T18:05:00Z or 2026-11-29T18:05:00+08:00, not '\(text)'"
                )
            }
            now = parsed
        }
        let alerts = try AlertOptions.parse(args, environment: environment)
        let channels = try AlertOptions.resolved(config.alerts ?? [], environment: environment) + alerts.channels
        var settings = RunSettings(
            scan: scan, logs: logs, now: now,
            graceSeconds: Int64(try args.number(R.grace, config: config.graceSeconds.map { Int($0) })),
            historyHours: Int64(try args.number(R.historyHours, config: config.historyHours.map { Int($0) })),
            // `"alerts": []` in the config, and no --webhook: metrics only, on purpose.
            alertMode: .of(channelKeys: channels.map(\.key), explicitlyNone: config.alerts?.isEmpty == true),
            host: args.value(AlertOptions.host) ?? config.host ?? alerts.host)
        settings.rotatedDirectory = args.value(R.rotatedDir) ?? config.rotatedDir
        settings.trustClock = args.flag(R.trustClock)
        if settings.rotatedDirectory?.isEmpty == true {
            let name = args.value(R.rotatedDir) != nil ? R.rotatedDir.flag : "config rotated_dir"
            throw CLIError("\(name) takes a directory, not ''")
        }
        var lockWait = config.lockWaitSeconds ?? Settings.lockWaitSeconds.defaultValue
        if let text = args.value(R.lockWait) {
            guard let value = Double(text), Settings.lockWaitSeconds.accepts(value) else {
                throw CLIError("\(R.lockWait.flag) \(Settings.lockWaitSeconds.rule(text))")
            }
            lockWait = value
        }
        // Each output named as the user gave it: the flag, or the config key.
        func named(_ option: OptionDef, _ fromConfig: String?) -> OutputGuard.Named? {
            if let path = args.value(option) { return .init(option.flag, path) }
            return fromConfig.map { .init("config \(option.configKey ?? option.name)", $0) }
        }
        func isRole(of option: OptionDef) -> (OutputGuard.Named) -> Bool {
            { $0.role == option.flag || $0.role == "config \(option.configKey ?? option.name)" }
        }
        let lockPath = args.value(R.lock) ?? config.lock ?? statePath + ".lock"
        let written = [
            named(R.out, config.report), named(R.html, config.html), named(R.prom, config.prom),
        ].compactMap { $0 }
        if let prom = written.first(where: isRole(of: R.prom)) {
            try OutputGuard.checkProm(prom.path, role: prom.role)
        }
        let resolved = try OutputGuard.resolve(written, json: args.flag(R.json))
        let target = { (option: OptionDef) in resolved.first(where: isRole(of: option))?.target }
        let outputs =
            resolved + [
                .init(
                    args.value(R.lock) != nil ? R.lock.flag : config.lock != nil ? "config lock" : "the lock", lockPath)
            ]
        let state = OutputGuard.Named(args.value(R.state) != nil ? R.state.flag : "config state", statePath)
        let nginxConf = args.value(AuditOptions.nginxConf) ?? config.format?.nginxConf
        try OutputGuard.check(
            inputs: logs.map { .init("the log", $0) },
            readOnly: [
                args.value(R.config).map { .init("the config", $0) },
                (args.value(AuditOptions.rulesFile) ?? config.rules).map { .init("the rules file", $0) },
                nginxConf.map { .init("the nginx config", $0) },
                InsightOptions.saltFile(args, config: config.insight).map { .init("the client salt file", $0) },
            ].compactMap { $0 } + OutputGuard.otherReads(nginxConf: nginxConf, channels: channels),
            state: state, outputs: outputs)
        try OutputGuard.checkRotation(outputs: [state] + outputs, logs: logs)
        try OutputGuard.refusePlantedLinks([state] + outputs)
        return RunJob(
            settings: settings, statePath: statePath, reportPath: target(R.out),
            htmlPath: target(R.html), promPath: target(R.prom),
            lockPath: lockPath, lockWait: lockWait, channels: channels,
            delivery: alerts.delivery,
            nginxConf: flagged(args) ? args.value(AuditOptions.nginxConf) : config.format?.nginxConf,
            formatFromConfig: !flagged(args) && config.format != nil,
            explainOptions: explainOptions(args, config, settings.scan),
            warnings: SecretExposure.warnings(channels: config.alerts ?? [], config: args.value(R.config))
                + SecretExposure.warnings(channels: alerts.channels)
                + SecretExposure.warning(saltFile: InsightOptions.saltFile(args, config: config.insight)))
    }

    /// The run's effective settings as explain's options: the format as compiled, and each of
    /// the rules, policy and insight options that the flags or the config gave (as written, so
    /// that explain reads them as run did; the rules file by its absolute path).
    private static func explainOptions(_ args: Arguments, _ config: RunConfig, _ scan: ScanConfiguration) -> [String] {
        typealias I = InsightOptions
        var words = ["--log-format", scan.format.string, "--escape", "\(scan.format.escape)"]
        func add(_ option: OptionDef, _ value: String?) {
            if let value { words += [option.flag, value] }
        }
        add(AuditOptions.rulesFile, (args.value(AuditOptions.rulesFile) ?? config.rules).map(ExplainLinks.absolute))
        add(PolicyOptions.threshold, args.value(R.threshold) ?? config.threshold?.text)
        add(PolicyOptions.minRequests, "\(scan.minRequests)")
        add(PolicyOptions.top, "\(scan.top)")
        let insight = config.insight
        add(I.clientKey, args.value(I.clientKey) ?? insight?.clientKey)
        add(I.appClasses, args.value(I.appClasses) ?? insight?.appClasses?.joined(separator: ","))
        if scan.insight.showClientKeys { words.append(I.showClientKeys.flag) }
        add(I.clientSaltFile, I.saltFile(args, config: insight).map(ExplainLinks.absolute))
        add(I.baselineHours, args.value(I.baselineHours) ?? insight?.baselineHours.map { "\($0)" })
        add(I.alertNewFamily, args.value(I.alertNewFamily) ?? insight?.alertNewFamily?.text)
        add(I.alertShareDrop, args.value(I.alertShareDrop) ?? insight?.alertShareDrop?.text)
        return words
    }

    private static func flagged(_ args: Arguments) -> Bool {
        AuditOptions.formatOptions.contains { args.value($0) != nil }
    }

    /// Flags win over the config's format; without either, the built-in ua_log.
    private static func compileFormat(_ args: Arguments, _ choice: RunConfig.FormatChoice?) throws(CLIError)
        -> LogFormat
    {
        guard !flagged(args), let choice else { return try AuditOptions.format(args) }
        do {
            return try choice.compile()
        } catch {
            throw CLIError("config format: \(error)")
        }
    }
}
