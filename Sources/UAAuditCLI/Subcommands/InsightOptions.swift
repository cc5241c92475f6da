import UAAuditCore

/// The split-identity and UA-drift options, shared by `scan` and `run` (where the config's
/// `insight` object gives the defaults).
enum InsightOptions {
    static let specs: [Arguments.Spec] = [
        .init(name: "client-key", short: nil, takesValue: true),
        .init(name: "app-classes", short: nil, takesValue: true),
        .init(name: "show-client-keys", short: nil, takesValue: false),
        .init(name: "baseline-hours", short: nil, takesValue: true),
        .init(name: "alert-new-family", short: nil, takesValue: true),
        .init(name: "alert-share-drop", short: nil, takesValue: true),
    ]

    static let help = """
              --client-key VAR     the format variable that identifies a client, for
                                   split clients (default remote_addr; e.g.
                                   http_x_device_id, cookie_uid; none turns it off)
              --app-classes A,B    the app's own classes (default urlsession,webview)
              --show-client-keys   show split clients' keys in full (default: hashed)
              --baseline-hours N   hours before an hour that UA families and shares
                                   are compared with (default 24; 0: no drift)
              --alert-new-family X alert when a UA family new against the baseline
                                   carries more than X of an hour (e.g. 5%)
              --alert-share-drop X alert when an app class's share falls by more
                                   than X of its baseline share (e.g. 50%)
        """

    static func settings(
        _ args: Arguments, config: RunConfig.InsightChoice?, format: LogFormat, rules: RuleSet
    ) throws(CLIError) -> InsightSettings {
        var settings = InsightSettings()
        let variables = format.variableNames
        var key = args.value("client-key") ?? config?.clientKey
        if key?.hasPrefix("$") == true { key?.removeFirst() }
        if let name = key {
            if name == "none" {
                settings.clientKey = nil
            } else if variables.contains(name) {
                settings.clientKey = name
            } else {
                throw CLIError(
                    "the client key $\(name) is not in the log format; pick one of its variables ("
                        + variables.map { "$" + $0 }.joined(separator: " ") + ") or none")
            }
        }
        if let list = args.value("app-classes").map({ $0.split(separator: ",").map(String.init) }) ?? config?.appClasses
        {
            for name in list where !rules.classNames.contains(name) || name == rules.alertClass {
                throw CLIError(
                    "app class '\(name)' is not a class of the rules other than the alert class "
                        + "(classes: \(rules.classNames.joined(separator: ", ")))")
            }
            settings.appClasses = list
        }
        settings.showClientKeys = args.flag("show-client-keys") || config?.showClientKeys == true
        if let hours = try args.integer(ConfigValues.baselineHours) ?? config?.baselineHours {
            guard (0...24 * 366).contains(hours) else {
                throw CLIError("baseline hours must be 0 to 8784, not \(hours)")
            }
            settings.baselineHours = hours
        }
        settings.newFamilyShare = try share(
            "alert-new-family", args.value("alert-new-family") ?? config?.alertNewFamily?.text)
        settings.shareDrop = try share(
            "alert-share-drop", args.value("alert-share-drop") ?? config?.alertShareDrop?.text)
        return settings
    }

    private static func share(_ name: String, _ text: String?) throws(CLIError) -> Double? {
        guard let text else { return nil }
        guard let parsed = Threshold(parsing: text) else {
            throw CLIError(
                "--\(name) takes a share from 0 to 1 such as 0.05, or a percentage such as 5%, not '\(text)'")
        }
        return parsed.value
    }
}
