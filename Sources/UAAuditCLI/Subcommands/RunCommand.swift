import FoundationEssentials
import UAAuditCore

/// `uaaudit run`: the hourly cron job. Reads only what was written since the last run, copes with
/// rotation, closes hours, alerts once per breached hour, and commits its state atomically.
struct RunCommand {
    static let specs: [Arguments.Spec] =
        AuditOptions.formatSpecs + AuditOptions.ruleSpecs + AlertOptions.specs.filter { $0.name != "host" }
        + InsightOptions.specs + [
            .init(name: "config", short: "c", takesValue: true),
            .init(name: "state", short: nil, takesValue: true),
            .init(name: "out", short: "o", takesValue: true),
            .init(name: "html", short: nil, takesValue: true),
            .init(name: "prom", short: nil, takesValue: true),
            .init(name: "lock", short: nil, takesValue: true),
            .init(name: "lock-wait", short: nil, takesValue: true),
            .init(name: "history-hours", short: nil, takesValue: true),
            .init(name: "grace", short: nil, takesValue: true),
            .init(name: "now", short: nil, takesValue: true),
            .init(name: "host", short: nil, takesValue: true),
            .init(name: "threshold", short: nil, takesValue: true),
            .init(name: "min-requests", short: nil, takesValue: true),
            .init(name: "top", short: nil, takesValue: true),
            .init(name: "json", short: nil, takesValue: false),
            .init(name: "quiet", short: "q", takesValue: false),
            .init(name: "heartbeat", short: nil, takesValue: false),
            .init(name: "fail-on-alert", short: nil, takesValue: false),
            .init(name: "help", short: "h", takesValue: false),
        ]

    static let help = """
        Usage: uaaudit run --config FILE
               uaaudit run --state FILE [--out FILE] [options] LOG...

        The hourly job (see cron/). Reads each log from where the last run stopped to
        its last complete line, follows rotation (renamed, copied, compressed and
        truncated logs), closes an hour once the clock (--now) is past its end plus
        the grace period and every log was read (a log unreadable for over 2 hours
        stops holding hours: they are marked incomplete; line times never close an
        hour; lines ahead of --now wait in their open hours, and only those over
        history_hours ahead count in totals.future), alerts once
        per breached hour under its own id, writes the report and commits the state
        atomically. Breached hours stay pending until every channel configured takes
        them (with no channel, until one is; "alerts": [] means metrics only). SIGTERM
        during delivery ends it after the attempt in flight (a second one aborts
        it) and commits what was delivered. A run killed at any point is redone by the
        next one: no line is counted twice or missed. A log that is missing, a
        directory, a FIFO, unreadable or gzip is exit 3 with the path and the cause,
        and stays where it stood (not forgotten, not advanced).

        Options (each is also a config key):
          -c, --config FILE        JSON config (see cron/uaaudit.json)
              --state FILE         state file (required, here or in the config)
          -o, --out FILE           report file (scan's schema, hours with closed/late);
                                   '-' is stdout. No output, state or lock may be
                                   a log, the config, the rules or another output
              --html FILE          the report as an HTML page, written with it
              --prom FILE          Prometheus metrics for node_exporter's textfile
                                   collector (*.prom): counters since the state
                                   began, written after the commit
              --lock FILE          lock file (default: STATE.lock)
              --lock-wait SECONDS  how long to wait for another run (default 30)
              --history-hours N    hours the report and state keep (default 48)
              --grace SECONDS      wait for late lines after an hour (default 300)
              --now TIME           stand-in for the clock: 2026-11-29T18:05:00Z
              --threshold X        alert above this share (default 0.001, or 0.1%;
                                   above 0.05 needs its %: 0.1 would mean 10%)
              --min-requests N     hours with fewer requests never alert (default 100)
              --top N              alert-class UAs listed per hour (default 10)

        Log format and rules (each also a config key):
        \(AuditOptions.formatHelp)
        \(AuditOptions.rulesHelp)

        Split clients and UA drift (config: the "insight" object with client_key,
        app_classes, show_client_keys, baseline_hours, alert_new_family,
        alert_share_drop; the baseline is the state's earlier hours):
        \(InsightOptions.help)

        Alerts (added to the config's "alerts"; the pending hours in as few messages
        per channel as its size limit allows, each hour in one; an hour a channel
        refused stays pending and is sent again next run; 3xx answers are failures,
        never followed):
        \(AlertOptions.help)

        Output:
              --json               print the report on stdout
          -q, --quiet              print nothing but errors
              --heartbeat          one line on stderr per run, even with --quiet:
                                   lines read, malformed, hours closed, alerts sent
                                   and pending, new gaps, exit status (cron/)
              --fail-on-alert      exit 1 when an hour closed by this run alerts
                                   (over the threshold, or a drift alert), when
                                   nothing else went wrong
          -h, --help               show this help

        \(ExitCode.helpText(for: [.success, .alert, .usage, .input, .delivery, .locked, .output, .encoding, .formatMismatch]))
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, specs: RunCommand.specs)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag("help") {
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
        return RunExecution(
            job: job, console: console, printJSON: args.flag("json"), quiet: args.flag("quiet"),
            heartbeat: args.flag("heartbeat"), failOnAlert: args.flag("fail-on-alert"), environment: environment
        ).run()
    }
}
