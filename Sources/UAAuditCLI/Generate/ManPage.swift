import UAAuditInput

/// uaaudit(1): one page with a section per command, made from the command and option
/// declarations (`uaaudit generate man`).
enum ManPage {
    static func render(version: String) -> String {
        var page = [
            ".TH UAAUDIT 1 \"\" \"uaaudit \(version)\" \"User Commands\"",
            // Option names must not break at a hyphen, nor lines be stretched around them.
            ".nh", ".ad l",
            ".SH NAME",
            "uaaudit \\- audit nginx access logs for User\\-Agent consistency",
            ".SH SYNOPSIS",
            usage(CommandSpec.all.flatMap(\.usage)),
            ".SH DESCRIPTION",
            Roff.paragraphs(description),
            ".SH COMMANDS",
        ]
        for spec in CommandSpec.all {
            page += [".SS " + Roff.bold("uaaudit " + spec.name), usage(spec.usage)]
            if !spec.about.isEmpty { page += [".PP", Roff.paragraphs(spec.about)] }
            for option in spec.options {
                page += [
                    ".TP", Roff.signature(option), Roff.escape(option.help.joined(separator: " ")) + extra(option),
                ]
            }
        }
        page += [".SH CONFIGURATION", Roff.paragraphs(configurationIntro)]
        for key in ConfigKeys.runConfig.paths {
            page += [".TP", Roff.bold(key), configMeaning(key) ?? ""]
        }
        page += [".SH \"EXIT STATUS\"", Roff.escape("When several apply, the highest wins.")]
        for code in ExitCode.all {
            page += [".TP", Roff.bold(String(code.rawValue)), Roff.escape(code.detail)]
        }
        page += [
            ".SH FILES",
            ".TP", Roff.italic("/etc/uaaudit/uaaudit.json"),
            Roff.escape("the config of uaaudit run (see CONFIGURATION); uaaudit doctor --write-config writes one"),
            ".TP", Roff.italic("/var/lib/uaaudit"),
            Roff.escape(
                "run's state, report and lock, owned by the uaaudit user (group adm, which reads /var/log/nginx)"),
            ".SH ENVIRONMENT",
        ]
        for (name, meaning) in environment {
            page += [".TP", Roff.bold(name), Roff.escape(meaning)]
        }
        page += [".SH EXAMPLES", ".nf", Roff.escape(examples), ".fi"]
        page += [
            ".SH \"SEE ALSO\"",
            "\\fBnginx\\fR(8), \\fBcron\\fR(8), \\fBlogrotate\\fR(8), \\fBprometheus\\-node\\-exporter\\fR(1)",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// Synopsis lines, each on a line of its own and wrapped under itself when too long.
    private static func usage(_ lines: [String]) -> String {
        ".PD 0\n" + lines.map { ".HP 4\n" + Roff.escape($0) }.joined(separator: "\n") + "\n.PD"
    }

    /// The default and whether it repeats, when the help does not already say them, each a
    /// sentence after the help's own (which gets its full stop).
    static func extra(_ option: OptionDef) -> String {
        var notes: [String] = []
        let help = option.help.joined(separator: " ")
        if let value = option.defaultValue, !help.contains("default") { notes.append("Default: \(value).") }
        if option.repeatable, !help.contains("repeat") {
            // The channel's settings (alerts[].kind …) pair with the channel before them, which
            // --webhook, --webhook-url-env or --webhook-url-file starts.
            let key = option.configKey ?? ""
            let perChannel = key.hasPrefix("alerts[].") && !key.hasPrefix("alerts[].url")
            notes.append(perChannel ? "Once per channel." : "May be repeated.")
        }
        guard !notes.isEmpty else { return "" }
        return (help.hasSuffix(".") ? " " : ". ") + Roff.escape(notes.joined(separator: " "))
    }

    static let description = """
        uaaudit reads nginx access logs, classifies every request's User-Agent with
        ordered PCRE2 rules (webview, urlsession, inconsistent, plus missing and
        other), counts the classes per hour, and flags every hour whose alert-class
        share is over the threshold (0.1% by default). It reads what nginx writes
        (its escaping, binary junk requests, gzip files), never stops on a bad line,
        and runs in constant memory.

        scan audits logs once; run is the hourly job that reads only new lines and
        survives rotation; the other commands explain an hour, merge reports, send
        alerts, classify UAs, write and check rules, and read nginx's own config.
        """

    static let configurationIntro = """
        uaaudit run --config FILE reads a JSON object (version 1); each key below is
        also set by the option named with it. An unknown key, or one given twice, is
        exit 2.

        Given on the command line, an option that stands for a single value wins over
        its key. The alerts are added to: each --webhook (with the --webhook-kind and
        secret options after it) is one more channel besides the config's alerts. The
        format is replaced as a whole: any of --format, --log-format, --escape or
        --nginx-conf replaces the config's whole format object, so keys of it that the
        options do not give are not kept. A flag can only switch on: --show-client-keys
        cannot switch off "show_client_keys": true in the config.
        """

    /// What a config key sets, in roff: the option of run that stands for it, or a note.
    static func configMeaning(_ key: String) -> String? {
        if let option = RunCommand.options.first(where: { $0.configKey == key }) {
            return "as " + Roff.signature(option) + ": " + Roff.escape(option.help.joined(separator: " "))
        }
        return keyNotes[key].map(Roff.escape)
    }

    /// The keys no option stands for.
    static let keyNotes: [String: String] = [
        "version": "the config's version: 1",
        "logs": "the logs to read (run's LOG operands)",
        "alerts[].url_env": "the name of an environment variable that holds the channel's URL",
        "alerts[].url_file": "a file that holds the channel's URL",
        "alerts[].secret": "the signing secret itself (dingtalk, feishu)",
        "alerts[].msgtype": "wecom's message type: markdown (default) or text",
        "alerts[].mentioned_list": "wecom: user ids to @ (with msgtype text)",
        "alerts[].mentioned_mobile_list": "wecom: mobile numbers to @ (with msgtype text)",
    ]

    static let environment: [(String, String)] = [
        ("NO_COLOR", "set and not empty: no colour in the summary (no-color.org)"),
        ("TERM", "dumb: no colour"),
        ("SOURCE_DATE_EPOCH", "seconds since 1970 used as the time in reports (reproducible output)"),
        ("PATH", "where doctor looks for nginx"),
        ("UAAUDIT_TIMING", "set: scan prints how long it took, and how much after the last chunk, on stderr"),
    ]

    static let examples = """
        uaaudit scan /var/log/nginx/access.log
        uaaudit scan -q --out report.json access.log.1 access.log.2.gz
        nginx -T | uaaudit doctor -
        uaaudit run --config /etc/uaaudit/uaaudit.json
        uaaudit explain 2026-11-29T17 /var/lib/uaaudit/report.json
        uaaudit alert test --webhook "$WECOM_URL"
        """
}
