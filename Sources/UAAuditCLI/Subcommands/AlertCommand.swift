import FoundationEssentials
import UAAuditRun

/// `uaaudit alert test`: sends a clearly marked test message through each channel and says,
/// per channel, whether it was delivered and, if not, the channel's own error.
struct AlertCommand {
    /// run's `--config`, here to test the channels of its "alerts".
    static let config = RunCommand.config.described([
        "also test every channel of run's config file (its", "\"alerts\", and its \"host\"), checked as run checks it",
    ])
    static let options = [config] + AlertOptions.options + [CommonOptions.help]

    static let spec = CommandSpec(
        "alert", label: "alert test", summary: ["send a test message through each --webhook"],
        usage: [
            "uaaudit alert test --webhook URL [--webhook-kind KIND] ... [--host NAME]",
            "uaaudit alert test --config FILE [--webhook URL ...]",
        ],
        about: """
            Sends a test message, marked as such, through each channel, the way scan and
            run send alerts (same payloads, signing, timeout and retries), and prints
            for each channel whether it was delivered or the channel's own error, such
            as 'errcode 93000 invalid webhook url'. Secrets in URLs are shown as ***.
            """, options: options, actions: ["test"])

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(OptionHelp.render([config]))
        \(AlertOptions.help)
        \(OptionHelp.render([CommonOptions.help]))

        Examples:
          uaaudit alert test --webhook "$WECOM_URL"
          uaaudit alert test --webhook http://127.0.0.1:9093 --webhook-kind alertmanager
          uaaudit alert test --config /etc/uaaudit/uaaudit.json

        \(ExitCode.helpText(for: [.success, .usage, .delivery]))
        """

    let console: Console
    let environment: [String: String]

    func run(_ words: [String]) -> ExitCode {
        guard let action = words.first, !action.hasPrefix("-") else {
            if (try? Arguments(words, options: AlertCommand.options))?.flag(CommonOptions.help) == true {
                console.out(AlertCommand.help + "\n")
                return .success
            }
            console.error("alert needs an action: uaaudit alert test --webhook URL ... (see uaaudit alert --help)")
            return .usage
        }
        guard action == "test" else {
            console.error("unknown alert action '\(action)'; the action is test (see uaaudit alert --help)")
            return .usage
        }
        var alerts: AlertOptions
        var configPath: String?
        var exposures: [String] = []
        do throws(CLIError) {
            let args = try Arguments(Array(words.dropFirst()), options: AlertCommand.options)
            if args.flag(CommonOptions.help) {
                console.out(AlertCommand.help + "\n")
                return .success
            }
            if !args.positional.isEmpty {
                throw CLIError("alert test takes no arguments, only options (got '\(args.positional[0])')")
            }
            alerts = try AlertOptions.parse(args, environment: environment)
            exposures = SecretExposure.warnings(channels: alerts.channels)
            configPath = args.value(AlertCommand.config)
            if let path = configPath {
                // The whole config, checked as run checks it (its threshold, rules, format and
                // outputs; the state need not exist yet), not only its channels. The logs and
                // the state may be left to run's command line, so a config without them is
                // checked with stand-ins.
                let config = try AlertOptions.config(path, environment: environment)
                var words = ["--config", path]
                if !config.hasState { words += ["--state", "/nonexistent/uaaudit-alert-test/state.json"] }
                if !config.hasLogs { words.append("/dev/null") }
                _ = try RunJob.compile(try Arguments(words, options: RunCommand.options), environment: environment)
                exposures = SecretExposure.warnings(channels: config.channels, config: path) + exposures
                alerts.channels = config.channels + alerts.channels
                alerts.host = args.value(AlertOptions.host) ?? config.host ?? alerts.host
            }
        } catch {
            console.error(error.message)
            return .usage
        }
        for warning in exposures { console.error(warning) }
        for warning in Self.repeatedChannels(alerts.channels, environment: environment) { console.note(warning) }
        if alerts.channels.isEmpty {
            console.error(
                configPath.map {
                    "config \($0) has no channel in \"alerts\": nothing to test (add one, or give --webhook URL)"
                } ?? "alert test needs at least one --webhook URL, or --config FILE")
            return .usage
        }
        let notification = AlertNotification.test(host: alerts.host, generatedAt: generatedAt())
        var status = ExitCode.success
        for result in alerts.deliver(notification, environment: environment) {
            console.out(TerminalText.escape(result.description) + "\n")
            if !result.delivered { status = .delivery }
        }
        return status
    }

    /// A warning for each URL given more than once (in the config, with `--webhook`, or both):
    /// that robot gets every message twice.
    static func repeatedChannels(_ channels: [AlertChannel], environment: [String: String]) -> [String] {
        var groups: [(channel: ResolvedChannel, count: Int)] = []
        for channel in channels {
            guard let resolved = try? channel.resolve(environment: environment) else { continue }
            if let i = groups.firstIndex(where: { $0.channel.sendsToSameURL(as: resolved) }) {
                groups[i].count += 1
            } else {
                groups.append((resolved, 1))
            }
        }
        return groups.filter { $0.count > 1 }.map {
            "warning: \($0.channel) is given \($0.count) times: it gets every message \($0.count) times; list it once"
        }
    }

    /// Now in UTC, or `SOURCE_DATE_EPOCH` when set (as scan's reports).
    private func generatedAt() -> String {
        if let text = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(text) {
            return Timestamps.iso8601UTC(seconds: seconds)
        }
        return Timestamps.iso8601UTC(seconds: Int64(Date().timeIntervalSince1970))
    }
}
