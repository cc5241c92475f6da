import Foundation
import UAAuditCore

/// The alert options of `scan` and `alert test`: the channels, the host name the alerts carry,
/// and how hard delivery tries.
///
/// `--webhook-kind`, `--webhook-secret-env` and `--webhook-secret-file` belong to the
/// `--webhook` before them, so several channels can be given in one command line.
struct AlertOptions {
    static let specs: [Arguments.Spec] = [
        .init(name: "webhook", short: nil, takesValue: true),
        .init(name: "webhook-kind", short: nil, takesValue: true),
        .init(name: "webhook-secret-env", short: nil, takesValue: true),
        .init(name: "webhook-secret-file", short: nil, takesValue: true),
        .init(name: "webhook-timeout", short: nil, takesValue: true),
        .init(name: "webhook-retries", short: nil, takesValue: true),
        .init(name: "host", short: nil, takesValue: true),
    ]

    static let help = """
              --webhook URL        a channel for alerts; repeat for more channels
              --webhook-kind KIND  the service of the --webhook before it: wecom,
                                   dingtalk, feishu, slack, generic or alertmanager
                                   (needed unless the URL's host tells it)
              --webhook-secret-env NAME, --webhook-secret-file PATH
                                   the signing secret of the --webhook before it
                                   (dingtalk, feishu), from a variable or a file
              --webhook-timeout S  seconds per attempt (default 10)
              --webhook-retries N  retries on connection errors, 5xx and rate
                                   limits (default 2)
              --host NAME          host name in alerts (default: this machine's)
        """

    var channels: [AlertChannel]
    var host: String
    var delivery: DeliveryOptions

    /// The channels of the command line, each resolved once here so that a bad URL, an unset
    /// variable or an unreadable file is a usage error before any work is done.
    static func parse(_ args: Arguments, environment: [String: String]) throws(CLIError) -> AlertOptions {
        var channels: [AlertChannel] = []
        for (name, value) in args.ordered {
            if name == "webhook" {
                channels.append(AlertChannel(url: .literal(value)))
                continue
            }
            guard name.hasPrefix("webhook-kind") || name.hasPrefix("webhook-secret") else { continue }
            guard var channel = channels.popLast() else {
                throw CLIError("--\(name) belongs to a --webhook: give it after the --webhook URL it is for")
            }
            switch name {
            case "webhook-kind":
                guard channel.kind == nil else { throw CLIError("--webhook-kind given twice for one --webhook") }
                guard let kind = ChannelKind(rawValue: value) else {
                    throw CLIError("--webhook-kind takes \(ChannelKind.list), not '\(value)'")
                }
                channel.kind = kind
            default:
                guard channel.secret == nil else { throw CLIError("two signing secrets given for one --webhook") }
                channel.secret = name == "webhook-secret-env" ? .environment(value) : .file(value)
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
        if let text = args.value("webhook-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw CLIError("--webhook-timeout takes seconds from 0 to 600, such as 10 or 2.5, not '\(text)'")
            }
            delivery.timeout = seconds
        }
        delivery.retries = try args.integer("webhook-retries", range: 0...10) ?? delivery.retries
        let host = args.value("host") ?? Syscalls.hostName()
        guard !host.isEmpty, host.utf8.count <= 255 else {
            throw CLIError("--host takes a name of 1 to 255 bytes")
        }
        return AlertOptions(channels: channels, host: host, delivery: delivery)
    }

    func deliver(_ notification: AlertNotification, environment: [String: String]) -> [DeliveryResult] {
        AlertDispatcher(options: delivery, environment: environment).deliverWhole(notification, to: channels)
    }

    /// The channels and host of run's config at `path`, each channel resolved (a bad URL, an
    /// unset variable, an unreadable file is a usage error, as for `run`).
    static func config(_ path: String, environment: [String: String]) throws(CLIError) -> (
        channels: [AlertChannel], host: String?
    ) {
        let config: RunConfig
        do {
            config = try RunConfig.load(path: path)
        } catch {
            throw CLIError(error.description)
        }
        let channels = try resolved(config.alerts ?? [], environment: environment)
        return (channels, config.host)
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
