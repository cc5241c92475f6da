import UAAuditInput

/// One option of a subcommand, declared once: the parser, `--help`, the man page, the shell
/// completions and the config-key check are all made from it (ripgrep's `flags/defs.rs`).
struct OptionDef: Sendable {
    /// What a shell may offer for the option's value.
    enum Completion: Sendable, Equatable {
        /// Anything: nothing to offer.
        case none
        /// A path to a file (or `-`).
        case file
        /// A directory.
        case directory
        /// One of a fixed list.
        case choices([String])
    }

    /// The long name, without `--`.
    let name: String
    let short: Character?
    /// The value's placeholder (`FILE`, `N`); nil for a flag.
    let valueName: String?
    /// What `--help` shows after the name, one string per line (wrapped as the help shows it).
    let help: [String]
    /// The default, as the man page states it; nil when there is none or it depends.
    let defaultValue: String?
    /// The key of run's config this option stands for (`min_requests`, `insight.client_key`,
    /// `alerts[].url`); nil when it has none.
    let configKey: String?
    /// True when the option may be given more than once (each value counts); a second value of
    /// any other option is a usage error.
    let repeatable: Bool
    let completion: Completion
    /// The numeric setting the option sets (its range, its default); nil for any other option.
    let setting: Setting?

    init(
        _ name: String, short: Character? = nil, value: String? = nil, help: [String], defaultValue: String? = nil,
        configKey: String? = nil, repeatable: Bool = false, completion: Completion = .none, setting: Setting? = nil
    ) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.defaultValue = defaultValue
        self.configKey = configKey
        self.repeatable = repeatable
        self.completion = completion
        self.setting = setting
    }

    /// The option of a numeric setting: its name, config key and default are the setting's, and
    /// its help ends with the default, `(default N)`, with `note` after N (`; 0: no drift`).
    init(_ setting: Setting, value: String, help: [String], note: String = "") {
        var lines = help
        lines[lines.count - 1] += " (default \(setting.defaultText)\(note))"
        self.init(
            setting.flag, value: value, help: lines, defaultValue: setting.defaultText, configKey: setting.key,
            setting: setting)
    }

    var takesValue: Bool { valueName != nil }

    /// `--name`, as messages and outputs' roles name the option.
    var flag: String { "--" + name }

    /// The same option with other help text (an option shared by commands that describe it
    /// each in their own words).
    func described(_ help: [String]) -> OptionDef {
        OptionDef(
            name, short: short, value: valueName, help: help, defaultValue: defaultValue, configKey: configKey,
            repeatable: repeatable, completion: completion, setting: setting)
    }

    /// The same option with other help text and another default (nil: none, as for merge,
    /// which keeps the reports' own values unless the option is given).
    func described(_ help: [String], default value: String?) -> OptionDef {
        OptionDef(
            name, short: short, value: valueName, help: help, defaultValue: value, configKey: configKey,
            repeatable: repeatable, completion: completion, setting: setting)
    }

    /// `-o, --out FILE` or `--json`, as `--help` and the man page show it.
    var signature: String {
        (short.map { "-\($0), " } ?? "") + flag + (valueName.map { " " + $0 } ?? "")
    }
}

/// The `--help` option every subcommand has.
enum CommonOptions {
    static let help = OptionDef("help", short: "h", help: ["show this help"])
}
