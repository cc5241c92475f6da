import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The declarations every generated text is made from.
@Suite struct OptionDeclarationsTests {
    static let commands = CommandSpec.all.map(\.name)

    static func spec(_ name: String) -> CommandSpec { CommandSpec.all.first { $0.name == name }! }

    @Test func theCommandsAreTheOnesTheToolDispatches() {
        #expect(
            Self.commands == [
                "scan", "explain", "merge", "run", "state", "alert", "classify", "rules", "doctor", "generate", "help",
                "version",
            ])
        #expect(UAAuditCLI.commands == Self.commands)
    }

    /// An option's config key must be a key run's config accepts: a renamed key would leave the
    /// man page and the completions pointing at nothing.
    @Test(arguments: commands)
    func everyConfigKeyIsAKeyOfRunsConfig(command: String) {
        let keys = Set(ConfigKeys.runConfig.paths)
        for option in Self.spec(command).options {
            guard let key = option.configKey else { continue }
            #expect(keys.contains(key), "\(command) \(option.flag): config key '\(key)' is not in ConfigKeys")
        }
    }

    /// The options of a `--help` section, by long name (`-c, --config FILE  …` → `config`).
    static func optionsUnder(_ heading: String, in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            // An option's line starts with its signature (a further line of help text, at column 27).
            let text = line.drop(while: { $0 == " " })
            guard line.count - text.count <= 6, text.hasPrefix("-"), let dashes = line.range(of: "--") else {
                return nil
            }
            return String(line[dashes.upperBound...].prefix { $0 != " " })
        }
    }

    /// run's --help lists the options without a config key apart from those with one.
    @Test func runsHelpPutsOnlyOptionsWithAConfigKeyUnderThatHeading() {
        #expect(Self.optionsUnder("Options:", in: RunCommand.help) == ["config", "now", "trust-clock"])
        let keyed = Self.optionsUnder("Options (each is also a config key):", in: RunCommand.help)
        #expect(
            keyed == [
                "state", "out", "html", "prom", "lock", "lock-wait", "history-hours", "grace", "rotated-dir",
                "threshold", "min-requests", "top",
            ])
        for name in Self.optionsUnder("Log format and rules (each also a config key):", in: RunCommand.help) {
            #expect(RunCommand.options.first { $0.name == name }?.configKey != nil, "\(name)")
        }
    }

    @Test func runsConfigKeysAreTheDecodedOnes() {
        #expect(
            ConfigKeys.runConfig.paths == [
                "alerts[].kind", "alerts[].mentioned_list", "alerts[].mentioned_mobile_list", "alerts[].msgtype",
                "alerts[].secret", "alerts[].secret_env", "alerts[].secret_file", "alerts[].url", "alerts[].url_env",
                "alerts[].url_file", "format.escape", "format.name", "format.nginx_conf", "format.string",
                "grace_seconds", "history_hours", "host", "html", "insight.alert_new_family",
                "insight.alert_share_drop", "insight.app_classes", "insight.baseline_hours", "insight.client_key",
                "insight.client_salt_file",
                "insight.show_client_keys", "lock", "lock_wait_seconds", "logs", "min_requests", "prom", "report",
                "rotated_dir", "rules", "state", "threshold", "top", "version",
            ])
    }

    /// Every numeric setting is set by an option declared from it, whose name, config key and
    /// default are the setting's.
    @Test func everyNumericSettingHasItsOption() {
        let options = Self.commands.flatMap { Self.spec($0).options }
        for setting in Settings.configurable + Settings.commandLineOnly {
            let declared = options.filter { $0.name == setting.flag }
            #expect(!declared.isEmpty, "\(setting.flag)")
            for option in declared {
                #expect(option.setting?.flag == setting.flag)
                #expect(option.configKey == setting.key)
                // merge keeps the reports' own minimum unless the option is given: no default.
                #expect(option.defaultValue == setting.defaultText || option.defaultValue == nil, "\(setting.flag)")
            }
        }
    }

    /// No default of a numeric setting is written anywhere but in its declaration
    /// (`Settings`): not in an option's help (the option adds it), not as a `?? N` nor as a
    /// parameter's default. A part of a line (between commas) that names the setting (its
    /// flag, key or name in code) and holds its default's digits is one more copy.
    @Test func noDefaultIsWrittenTwice() throws {
        let options = Self.commands.flatMap { Self.spec($0).options }
        for option in options where option.setting != nil {
            #expect(option.help.joined(separator: " ").components(separatedBy: "(default").count <= 2, "\(option.flag)")
        }
        let patterns: [(Setting, String)] = [
            (Settings.top, #"\btop\b"#), (Settings.minRequests, #"minRequests|min-requests|min_requests"#),
            (Settings.historyHours, #"historyHours|history-hours|history_hours"#),
            (Settings.graceSeconds, #"graceSeconds|\bgrace\b|grace_seconds"#),
            (Settings.lockWaitSeconds, #"lockWait|lock-wait|lock_wait"#),
            (Settings.baselineHours, #"baselineHours|baseline-hours|baseline_hours"#),
            (Settings.maxLineBytes, #"maxLineBytes|max-line-bytes|MaxLineBytes"#),
            (Settings.doctorLines, #"lineCount|Self\.lines"#), (Settings.doctorSample, #"sampleCount|Self\.sample"#),
            (Settings.webhookRetries, #"retries"#), (Settings.webhookTimeout, #"timeout"#),
        ]
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path
        let files = (FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") && $0 != "UAAuditInput/Support/Setting.swift" }.sorted()
        #expect(files.count > 100)
        var copies: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: sources + "/" + file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).map(String.init)
            for (setting, pattern) in patterns {
                let name = try Regex(pattern)
                let digits = try Regex("(^|[^0-9.])\(setting.defaultText)([^0-9]|$)")
                for (i, line) in lines.enumerated() {
                    // Another setting of the same name: the app detection's own minimum.
                    let parts = line.replacingOccurrences(of: "AppDetection.minRequests", with: "")
                        .split(separator: ",")
                    if parts.contains(where: { $0.contains(name) && $0.contains(digits) }) {
                        copies.append("\(file):\(i + 1): \(line)")
                    }
                }
            }
        }
        #expect(copies.isEmpty, "\(copies.joined(separator: "\n"))")
    }

    @Test(arguments: commands)
    func namesAndShortFormsAreUniqueInACommand(command: String) {
        let options = Self.spec(command).options
        #expect(Set(options.map(\.name)).count == options.count)
        let shorts = options.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
    }

    /// Only the options that stand for a list may be given twice.
    @Test func theRepeatableOptionsAreTheListOnes() {
        let repeatable = Set(CommandSpec.all.flatMap { $0.options.filter(\.repeatable).map(\.name) })
        #expect(
            repeatable == [
                "webhook", "webhook-url-env", "webhook-url-file", "webhook-kind", "webhook-secret-env",
                "webhook-secret-file", "bundle",
            ])
    }

    /// A command whose label leaves no room before column 20 has its summary on the next line.
    @Test func theCommandListKeepsEverySummaryAtColumn20() {
        let lines = CommandSpec.listing.split(separator: "\n")
        #expect(lines.contains("  rules init|test|lint"))
        #expect(lines.contains("                    write rules for your app; test and lint rules files"))
        #expect(lines.contains("  generate man|bash|zsh"))
        #expect(lines.contains("                    print the man page or a completion script"))
        #expect(lines.contains("  explain HOUR ...  one hour on one page: share, cost, split clients, drift"))
        for line in lines where line.count > 20 {
            #expect(line.prefix(20).hasSuffix("  ") || !line.dropFirst(2).contains("  "), "\(line)")
        }
    }

    @Test func helpLinesAreRenderedAtTheirColumn() {
        #expect(
            OptionHelp.render(PolicyOptions.out)
                == """
                  -o, --out FILE           write the JSON report to FILE (atomically); '-' is
                                           stdout. No output may be an input or another output
                """)
        #expect(
            OptionHelp.render(AlertOptions.webhookSecretFile)
                == """
                      --webhook-secret-file PATH
                                           the signing secret of the channel before it
                                           (dingtalk, feishu), from a file
                """)
        #expect(OptionHelp.render(CommonOptions.help) == "  -h, --help               show this help")
    }
}

/// Each `--help` shows every option its command declares, as the declaration renders it.
@Suite struct HelpFromDeclarationsTests {
    @Test(arguments: CommandSpec.all.map(\.name))
    func everyDeclaredOptionIsInTheCommandsHelp(command: String) throws {
        let help = try #require(UAAuditCLI.helpText(of: command))
        let spec = CommandSpec.all.first { $0.name == command }!
        for option in spec.options {
            let margins = command == "rules" && option.name != "help" ? (9, 9, 32) : (6, 2, OptionHelp.column)
            let block = OptionHelp.render(option, margin: margins.0, shortMargin: margins.1, column: margins.2)
            #expect(help.contains(block + "\n"), "\(command) --help lacks \(option.flag)")
        }
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
        if !spec.options.isEmpty { #expect(help.hasPrefix(spec.usageText + "\n")) }
    }

    @Test func theTopLevelHelpListsEveryCommand() {
        for spec in CommandSpec.all {
            let label = "\n  " + spec.label
            #expect(UAAuditCLI.help.contains(label + " ") || UAAuditCLI.help.contains(label + "\n"), "\(spec.name)")
        }
        #expect(UAAuditCLI.helpText(of: "scna") == nil)
    }
}
