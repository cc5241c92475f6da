import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// The split-identity and UA-drift options, shared by `scan` and `run` (where the config's
/// `insight` object gives the defaults).
enum InsightOptions {
    static let clientKey = OptionDef(
        "client-key", value: "VAR",
        help: [
            "the format variable that identifies a client, for", "split clients (default remote_addr; e.g.",
            "http_x_device_id, cookie_uid; none turns it off)",
        ], defaultValue: "remote_addr", configKey: "insight.client_key")
    static let appClasses = OptionDef(
        "app-classes", value: "A,B", help: ["the app's own classes (default urlsession,webview)"],
        defaultValue: "urlsession,webview", configKey: "insight.app_classes")
    static let showClientKeys = OptionDef(
        "show-client-keys", help: ["show split clients' keys in full (default: hashed)"],
        configKey: "insight.show_client_keys")
    static let clientSaltFile = OptionDef(
        "client-salt-file", value: "FILE",
        help: [
            "hash client keys with the salt in FILE: the same", "file on every host whose reports are merged",
            "(default: the documented default salt)",
        ], configKey: "insight.client_salt_file")
    static let baselineHours = OptionDef(
        Settings.baselineHours, value: "N",
        help: ["hours before an hour that UA families and shares", "are compared with"], note: "; 0: no drift")
    static let alertNewFamily = OptionDef(
        "alert-new-family", value: "X",
        help: ["alert when a UA family new against the baseline", "carries more than X of an hour (e.g. 5%)"],
        configKey: "insight.alert_new_family")
    static let alertShareDrop = OptionDef(
        "alert-share-drop", value: "X",
        help: ["alert when an app class's share falls by more", "than X of its baseline share (e.g. 50%)"],
        configKey: "insight.alert_share_drop")

    static let options = [
        clientKey, appClasses, showClientKeys, clientSaltFile, baselineHours, alertNewFamily, alertShareDrop,
    ]

    static let help = OptionHelp.render(options)

    static func settings(
        _ args: Arguments, config: RunConfig.InsightChoice?, format: LogFormat, rules: RuleSet
    ) throws(CLIError) -> InsightSettings {
        var settings = InsightSettings()
        let variables = format.variableNames
        var key = args.value(clientKey) ?? config?.clientKey
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
        if let list = args.value(appClasses).map({ $0.split(separator: ",").map(String.init) }) ?? config?.appClasses {
            for name in list where !rules.classNames.contains(name) || name == rules.alertClass {
                throw CLIError(
                    "app class '\(name)' is not a class of the rules other than the alert class "
                        + "(classes: \(rules.classNames.joined(separator: ", ")))")
            }
            settings.appClasses = list
        }
        settings.showClientKeys = args.flag(showClientKeys) || config?.showClientKeys == true
        if let path = saltFile(args, config: config) {
            do {
                settings.salt = try ClientSalt(file: path)
            } catch {
                throw CLIError("the client salt file \(error.path): \(error.reason)")
            }
        }
        // In the setting's range: the flag's checked here, the config's when it was loaded.
        settings.baselineHours = try args.number(baselineHours, config: config?.baselineHours)
        settings.newFamilyShare = try share(
            alertNewFamily, args.value(alertNewFamily) ?? config?.alertNewFamily?.text)
        settings.shareDrop = try share(alertShareDrop, args.value(alertShareDrop) ?? config?.alertShareDrop?.text)
        return settings
    }

    /// The salt file the flag or the config names.
    static func saltFile(_ args: Arguments, config: RunConfig.InsightChoice?) -> String? {
        args.value(clientSaltFile) ?? config?.clientSaltFile
    }

    private static func share(_ option: OptionDef, _ text: String?) throws(CLIError) -> Threshold? {
        guard let text else { return nil }
        guard let parsed = Threshold(parsing: text) else {
            throw CLIError(
                "\(option.flag) takes a share from 0 to 1 such as 0.05, or a percentage such as 5%, not '\(text)'")
        }
        return parsed
    }
}
