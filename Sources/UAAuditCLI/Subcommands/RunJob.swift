import Foundation
import UAAuditCore

/// `uaaudit run`'s options compiled: the config file first, flags over it.
struct RunJob {
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

    static func compile(_ args: Arguments, environment: [String: String]) throws(CLIError) -> RunJob {
        var config = RunConfig()
        if let path = args.value("config") {
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
        guard let statePath = args.value("state") ?? config.state else {
            throw CLIError("run needs a state file: --state FILE or \"state\" in the config")
        }
        let format = try compileFormat(args, config.format)
        let rules: RuleSet
        if args.value("rules") != nil {
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
        if let text = args.value("threshold") {
            threshold = try ThresholdOption.parse(text, name: "--threshold")
        } else if let text = config.threshold?.text {
            threshold = try ThresholdOption.parse(text, name: "config threshold")
        }
        let scan = ScanConfiguration(
            format: format, rules: rules, threshold: threshold,
            minRequests: Int64(
                try args.integer(ConfigValues.minRequests) ?? Int(config.minRequests ?? 100)),
            top: try args.integer(ConfigValues.top) ?? config.top ?? 10, threads: 1,
            insight: try InsightOptions.settings(args, config: config.insight, format: format, rules: rules))
        var now = Int64(Date().timeIntervalSince1970)
        if let text = args.value("now") {
            guard let parsed = Instant.parse(text) else {
                throw CLIError(
                    "--now takes an ISO-8601 time such as 2026-11-29T18:05:00Z or 2026-11-29T18:05:00+08:00, not '\(text)'"
                )
            }
            now = parsed
        }
        let alerts = try AlertOptions.parse(args, environment: environment)
        let channels = try AlertOptions.resolved(config.alerts ?? [], environment: environment) + alerts.channels
        let settings = RunSettings(
            scan: scan, logs: logs, now: now,
            graceSeconds: Int64(try args.integer(ConfigValues.graceSeconds) ?? Int(config.graceSeconds ?? 300)),
            historyHours: Int64(
                try args.integer(ConfigValues.historyHours) ?? Int(config.historyHours ?? 48)),
            // `"alerts": []` in the config, and no --webhook: metrics only, on purpose.
            alertMode: .of(channelKeys: channels.map(\.key), explicitlyNone: config.alerts?.isEmpty == true),
            host: args.value("host") ?? config.host ?? alerts.host)
        var lockWait = config.lockWaitSeconds ?? 30
        if let text = args.value("lock-wait") {
            guard let value = Double(text), ConfigValues.lockWaitSeconds.accepts(value) else {
                throw CLIError("--lock-wait \(ConfigValues.lockWaitSeconds.rule(text))")
            }
            lockWait = value
        }
        // Each output named as the user gave it: the flag, or the config key.
        func named(_ flag: String, _ key: String, _ fromConfig: String?) -> OutputGuard.Named? {
            if let path = args.value(flag) { return .init("--\(flag)", path) }
            return fromConfig.map { .init("config \(key)", $0) }
        }
        let lockPath = args.value("lock") ?? config.lock ?? statePath + ".lock"
        let written = [
            named("out", "report", config.report), named("html", "html", config.html),
            named("prom", "prom", config.prom),
        ].compactMap { $0 }
        if let prom = written.first(where: { $0.role.hasSuffix("prom") }) {
            try OutputGuard.checkProm(prom.path, role: prom.role)
        }
        let resolved = try OutputGuard.resolve(written, json: args.flag("json"))
        let target = { (key: String) in resolved.first { $0.role.hasSuffix(key) }?.target }
        let outputs =
            resolved + [
                .init(args.value("lock") != nil ? "--lock" : config.lock != nil ? "config lock" : "the lock", lockPath)
            ]
        let state = OutputGuard.Named(args.value("state") != nil ? "--state" : "config state", statePath)
        let nginxConf = args.value("nginx-conf") ?? config.format?.nginxConf
        try OutputGuard.check(
            inputs: logs.map { .init("the log", $0) },
            readOnly: [
                args.value("config").map { .init("the config", $0) },
                (args.value("rules") ?? config.rules).map { .init("the rules file", $0) },
                nginxConf.map { .init("the nginx config", $0) },
            ].compactMap { $0 } + OutputGuard.otherReads(nginxConf: nginxConf, channels: channels),
            state: state, outputs: outputs)
        try OutputGuard.checkRotation(outputs: [state] + outputs, logs: logs)
        return RunJob(
            settings: settings, statePath: statePath, reportPath: target("out") ?? target("report"),
            htmlPath: target("html"), promPath: target("prom"),
            lockPath: lockPath, lockWait: lockWait, channels: channels,
            delivery: alerts.delivery,
            nginxConf: flagged(args) ? args.value("nginx-conf") : config.format?.nginxConf,
            formatFromConfig: !flagged(args) && config.format != nil)
    }

    private static func flagged(_ args: Arguments) -> Bool {
        ["format", "log-format", "escape", "nginx-conf"].contains { args.value($0) != nil }
    }

    /// Flags win over the config's format; without either, the built-in ua_log.
    private static func compileFormat(_ args: Arguments, _ choice: RunConfig.FormatChoice?) throws(CLIError)
        -> LogFormat
    {
        let flagged = ["format", "log-format", "escape", "nginx-conf"].contains { args.value($0) != nil }
        guard !flagged, let choice else { return try AuditOptions.format(args) }
        do {
            return try choice.compile()
        } catch {
            throw CLIError("config format: \(error)")
        }
    }
}
