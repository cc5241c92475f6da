import FoundationEssentials
import UAAuditInput
import UAAuditRun

/// `uaaudit run`: the hourly cron job. Reads only what was written since the last run, copes with
/// rotation, closes hours, alerts once per breached hour, and commits its state atomically.
struct RunCommand {
    typealias P = PolicyOptions
    static let config = OptionDef(
        "config", short: "c", value: "FILE", help: ["JSON config (see cron/uaaudit.json)"], completion: .file)
    static let state = OptionDef(
        "state", value: "FILE", help: ["state file (required, here or in the config)"], configKey: "state",
        completion: .file)
    static let out = P.out.described([
        "report file (scan's schema, hours with closed/late);", "'-' is stdout. No output, state or lock may be",
        "a log, the config, the rules or another output",
    ])
    static let html = P.html.described(["the report as an HTML page, written with it"])
    static let prom = P.prom.described([
        "Prometheus metrics for node_exporter's textfile", "collector (*.prom): counters since the state",
        "began, written after the commit",
    ])
    static let lock = OptionDef(
        "lock", value: "FILE", help: ["lock file (default: STATE.lock)"], defaultValue: "STATE.lock", configKey: "lock",
        completion: .file)
    static let lockWait = OptionDef(
        Settings.lockWaitSeconds, value: "SECONDS", help: ["how long to wait for another run"])
    static let historyHours = OptionDef(
        Settings.historyHours, value: "N", help: ["hours the state keeps and pages about"])
    static let grace = OptionDef(Settings.graceSeconds, value: "SECONDS", help: ["wait for late lines after an hour"])
    static let rotatedDir = OptionDef(
        "rotated-dir", value: "DIR",
        help: [
            "look for rotated files here too (logrotate's", "olddir; relative to each log's directory)",
        ], configKey: "rotated_dir", completion: .directory)
    static let now = OptionDef("now", value: "TIME", help: ["stand-in for the clock: 2026-11-29T18:05:00Z"])
    static let trustClock = OptionDef(
        "trust-clock",
        help: [
            "believe this run's clock (or --now) though it is", "far from the last run's and the lines' (the",
            "clock was fixed; see docs/run.md)",
        ])
    static let threshold = P.threshold.described([
        "alert above this share (default 0.001, or 0.1%;", "above 0.05 needs its %: 0.1 would mean 10%)",
    ])
    static let json = P.json.described(["print the report on stdout"])
    static let quiet = P.quiet.described(["print nothing but errors"])
    static let heartbeat = OptionDef(
        "heartbeat",
        help: [
            "one line on stderr per run, even with --quiet:", "lines read, malformed, hours closed, alerts sent",
            "and pending, new gaps, exit status (cron/)",
        ])
    static let failOnAlert = P.failOnAlert.described([
        "exit 1 when an hour closed by this run alerts", "(over the threshold, or a drift alert), when",
        "nothing else went wrong",
    ])

    /// run's own options; its --help lists those with a config key apart from the others.
    static let ownOptions =
        [
            config, state, out, html, prom, lock, lockWait, historyHours, grace, rotatedDir, now, trustClock,
            threshold, P.minRequests, P.top,
        ]
    static let options: [OptionDef] =
        ownOptions
        + AuditOptions.formatOptions + AuditOptions.ruleOptions + InsightOptions.options + AlertOptions.options
        + [json, quiet, heartbeat, failOnAlert, CommonOptions.help]

    static let spec = CommandSpec(
        "run", label: "run", summary: ["the hourly job: new lines only, rotation-safe (see cron/)"],
        usage: ["uaaudit run --config FILE", "uaaudit run --state FILE [--out FILE] [options] LOG..."],
        about: """
            The hourly job (see cron/). Reads each log from where the last run stopped to
            its last complete line, follows rotation (renamed, copied, compressed and
            truncated logs), closes an hour once the clock (--now) is past its end plus the
            grace period and every log was read (a log unreadable for over 2 hours stops
            holding hours: they are marked incomplete; line times never close an hour;
            lines ahead of --now wait in their open hours, and those over history_hours
            ahead wait in the state until the clock reaches their hour), alerts once per
            breached hour under its own id (an hour already history_hours old when first
            read is reported as backfill, never alerted), writes the report and commits the
            state atomically.
            Breached hours stay pending until every channel configured takes them (with no
            channel, until one is; "alerts": [] means metrics only). SIGTERM during
            delivery ends it after the attempt in flight (a second one aborts it) and
            commits what was delivered. A run killed at any point is redone by the next
            one: no line is counted twice or missed. A log that is missing, a directory, a
            FIFO, unreadable or gzip is exit 3 with the path and the cause, and stays where
            it stood (not forgotten, not advanced).
            """, options: options, operands: .file)

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(OptionHelp.render(ownOptions.filter { $0.configKey == nil }))

        Options (each is also a config key):
        \(OptionHelp.render(ownOptions.filter { $0.configKey != nil }))

        Log format and rules (each also a config key):
        \(AuditOptions.formatHelp)
        \(AuditOptions.rulesHelp)

        Split clients and UA drift (config: the "insight" object with client_key,
        app_classes, show_client_keys, client_salt_file, baseline_hours,
        alert_new_family, alert_share_drop; the baseline is the state's earlier hours):
        \(InsightOptions.help)

        Alerts (added to the config's "alerts"; the pending hours in as few messages
        per channel as its size limit allows, each hour in one; an hour a channel
        refused stays pending and is sent again next run; 3xx answers are failures,
        never followed):
        \(AlertOptions.help)

        Output:
        \(OptionHelp.render([json, quiet, heartbeat, failOnAlert, CommonOptions.help]))

        \(ExitCode.helpText(for: [.success, .alert, .usage, .input, .delivery, .locked, .output, .encoding, .formatMismatch]))
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: RunCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) {
            console.out(RunCommand.help + "\n")
            return .success
        }
        let job: RunJob
        do {
            job = try RunJob.compile(args, environment: environment)
        } catch {
            console.error(error.message)
            return .usage
        }
        // Said even with -q: a secret others may read is worth a line in the cron log.
        for warning in job.warnings { console.error(warning) }
        return RunExecution(
            job: job, console: console, printJSON: args.flag(Self.json), quiet: args.flag(Self.quiet),
            heartbeat: args.flag(Self.heartbeat), failOnAlert: args.flag(Self.failOnAlert), environment: environment
        ).run()
    }
}
