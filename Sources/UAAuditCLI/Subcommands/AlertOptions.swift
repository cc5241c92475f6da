import FoundationEssentials
import UAAuditCurl
import UAAuditInput
import UAAuditRun

/// The alert options of `scan` and `alert test`: the channels, the host name the alerts carry,
/// and how hard delivery tries.
///
/// Each of `--webhook URL`, `--webhook-url-env NAME` and `--webhook-url-file PATH` starts a
/// channel (its one URL source, as the config's `url`, `url_env` and `url_file`); the last two
/// keep the URL, which holds the token, out of the command line that `ps` shows.
/// `--webhook-kind`, `--webhook-secret-env` and `--webhook-secret-file` belong to the channel
/// before them, so several channels can be given in one command line.
struct AlertOptions {
    static let webhook = OptionDef(
        "webhook", value: "URL",
        help: [
            "a channel for alerts; repeat for more channels", "(the URL shows in ps: prefer --webhook-url-env",
            "or --webhook-url-file)",
        ], configKey: "alerts[].url", repeatable: true)
    static let webhookURLEnv = OptionDef(
        "webhook-url-env", value: "NAME",
        help: ["a channel whose URL is in the environment", "variable NAME"], configKey: "alerts[].url_env",
        repeatable: true)
    static let webhookURLFile = OptionDef(
        "webhook-url-file", value: "PATH",
        help: ["a channel whose URL is in the file PATH"], configKey: "alerts[].url_file", repeatable: true,
        completion: .file)
    static let webhookKind = OptionDef(
        "webhook-kind", value: "KIND",
        help: [
            "the service of the channel before it: wecom,", "dingtalk, feishu, slack, generic or alertmanager",
            "(needed unless the URL's host tells it)",
        ], configKey: "alerts[].kind", repeatable: true, completion: .choices(ChannelKind.allCases.map(\.rawValue)))
    static let webhookSecretEnv = OptionDef(
        "webhook-secret-env", value: "NAME",
        help: ["the signing secret of the channel before it", "(dingtalk, feishu), from a variable"],
        configKey: "alerts[].secret_env", repeatable: true)
    static let webhookSecretFile = OptionDef(
        "webhook-secret-file", value: "PATH",
        help: ["the signing secret of the channel before it", "(dingtalk, feishu), from a file"],
        configKey: "alerts[].secret_file", repeatable: true, completion: .file)
    static let webhookTimeout = OptionDef(Settings.webhookTimeout, value: "S", help: ["seconds per attempt"])
    static let webhookRetries = OptionDef(
        Settings.webhookRetries, value: "N", help: ["retries on connection errors, 5xx and rate", "limits"])
    static let host = OptionDef(
        "host", value: "NAME", help: ["host name in alerts (default: this machine's)"], configKey: "host")

    static let options = [
        webhook, webhookURLEnv, webhookURLFile, webhookKind, webhookSecretEnv, webhookSecretFile, webhookTimeout,
        webhookRetries, host,
    ]

    static let help = OptionHelp.render(options)

    var channels: [AlertChannel]
    var host: String
    var delivery: DeliveryOptions

    /// The channels of the command line, each resolved once here so that a bad URL, an unset
    /// variable or an unreadable file is a usage error before any work is done.
    static func parse(_ args: Arguments, environment: [String: String]) throws(CLIError) -> AlertOptions {
        var channels: [AlertChannel] = []
        for (option, value) in args.ordered {
            let name = option.name
            switch name {
            case webhook.name:
                channels.append(AlertChannel(url: .literal(value)))
                continue
            case webhookURLEnv.name:
                channels.append(AlertChannel(url: .environment(value)))
                continue
            case webhookURLFile.name:
                channels.append(AlertChannel(url: .file(value)))
                continue
            default: break
            }
            guard [webhookKind.name, webhookSecretEnv.name, webhookSecretFile.name].contains(name) else { continue }
            guard var channel = channels.popLast() else {
                throw CLIError(
                    "\(option.flag) belongs to a channel: give it after the \(webhook.flag), \(webhookURLEnv.flag) or "
                        + "\(webhookURLFile.flag) it is for")
            }
            switch name {
            case webhookKind.name:
                guard channel.kind == nil else { throw CLIError("\(webhookKind.flag) given twice for one channel") }
                guard let kind = ChannelKind(rawValue: value) else {
                    throw CLIError("\(webhookKind.flag) takes \(ChannelKind.list), not '\(value)'")
                }
                channel.kind = kind
            default:
                guard channel.secret == nil else { throw CLIError("two signing secrets given for one channel") }
                channel.secret = name == webhookSecretEnv.name ? .environment(value) : .file(value)
            }
            channels.append(channel)
        }
        for channel in channels {
            do {
                _ = try channel.resolve(environment: environment)
            } catch AlertError.kindNotInferred(let shown) {
                throw CLIError(
                    "--webhook \(shown): cannot tell which service this is; add --webhook-kind KIND after it "
                        + "(\(ChannelKind.list))")
            } catch {
                throw CLIError("--webhook: \(error.description)")
            }
        }
        var delivery = DeliveryOptions(userAgent: "uaaudit/\(UAAuditCLI.version)")
        if let text = args.value(webhookTimeout) {
            let range = Settings.webhookTimeout.range
            guard let seconds = Double(text), seconds > range.lowerBound, seconds <= range.upperBound else {
                throw CLIError(
                    "\(webhookTimeout.flag) takes seconds from \(Setting.text(range.lowerBound)) to "
                        + "\(Setting.text(range.upperBound)), such as 10 or 2.5, not '\(text)'")
            }
            delivery.timeout = seconds
        }
        delivery.retries = try args.integer(webhookRetries) ?? delivery.retries
        let host = args.value(Self.host) ?? Syscalls.hostName()
        guard !host.isEmpty, host.utf8.count <= 255 else {
            throw CLIError("\(Self.host.flag) takes a name of 1 to 255 bytes")
        }
        return AlertOptions(channels: channels, host: host, delivery: delivery)
    }

    func deliver(_ notification: AlertNotification, environment: [String: String]) -> [DeliveryResult] {
        AlertDispatcher(options: delivery, environment: environment, transport: CurlTransport())
            .deliverWhole(notification, to: channels)
    }

    /// The channels and host of run's config at `path`, each channel resolved (a bad URL, an
    /// unset variable, an unreadable file is a usage error, as for `run`).
    static func config(_ path: String, environment: [String: String]) throws(CLIError) -> (
        channels: [AlertChannel], host: String?, hasState: Bool, hasLogs: Bool
    ) {
        let config: RunConfig
        do {
            config = try RunConfig.load(path: path)
        } catch {
            throw CLIError(error.description)
        }
        let channels = try resolved(config.alerts ?? [], environment: environment)
        return (channels, config.host, config.state != nil, !(config.logs ?? []).isEmpty)
    }

    /// A config's channels, each resolved once (a bad URL, an unset variable, an unreadable
    /// file is a usage error before any work is done).
    static func resolved(_ channels: [AlertChannel], environment: [String: String]) throws(CLIError) -> [AlertChannel] {
        for channel in channels {
            do {
                _ = try channel.resolve(environment: environment)
            } catch {
                throw CLIError("config alerts: \(channel): \(error.description)")
            }
        }
        return channels
    }
}
