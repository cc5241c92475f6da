import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ManPageTests {
    static let page = ManPage.render(version: "9.9.9")

    /// The page's `.SS` section of one command.
    static func section(_ command: String) -> String {
        let start = page.range(of: ".SS \\fBuaaudit \(command)\\fR\n")!.upperBound
        let rest = page[start...]
        let end = rest.range(of: "\n.SS ")?.lowerBound ?? rest.range(of: "\n.SH ")!.lowerBound
        return String(rest[..<end])
    }

    @Test func hasTheSectionsOfAManPageInOrder() {
        let headings = Self.page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }
        #expect(
            headings == [
                ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH CONFIGURATION",
                ".SH \"EXIT STATUS\"", ".SH FILES", ".SH ENVIRONMENT", ".SH EXAMPLES", ".SH \"SEE ALSO\"",
            ])
        #expect(Self.page.hasPrefix(".TH UAAUDIT 1 \"\" \"uaaudit 9.9.9\" \"User Commands\"\n"))
    }

    /// A declared option missing from its command's section fails here.
    @Test(arguments: CommandSpec.all.map(\.name))
    func everyDeclaredOptionIsInItsCommandsSection(command: String) {
        let section = Self.section(command)
        let spec = CommandSpec.all.first { $0.name == command }!
        for option in spec.options {
            #expect(section.contains(".TP\n" + Roff.signature(option) + "\n"), "\(command) \(option.flag)")
        }
    }

    @Test func anOptionIsItsSignatureThenItsHelpAsOneParagraph() {
        #expect(
            Self.section("scan").contains(
                ".TP\n\\fB\\-o\\fR, \\fB\\-\\-out\\fR \\fIFILE\\fR\nwrite the JSON report to FILE (atomically); "
                    + "'\\-' is stdout. No output may be an input or another output\n"))
        #expect(Self.section("rules").contains("\\fB\\-\\-bundle\\fR \\fINAME\\fR\n"))
        #expect(
            Self.section("scan").contains(
                "a channel for alerts; repeat for more channels (the URL shows in ps: prefer \\-\\-webhook\\-url\\-env "
                    + "or \\-\\-webhook\\-url\\-file)\n"))
        #expect(Self.section("run").contains("hours the state keeps and pages about (default 48)\n"))
        #expect(Self.section("doctor").contains("last lines of each log to check (default 20)\n"))
    }

    /// merge keeps the reports' own threshold and minimum unless given: no default of scan's.
    @Test func mergesPolicyOptionsHaveNoDefaultOfTheirOwn() {
        let merge = Self.section("merge")
        #expect(
            merge.contains(
                ".TP\n\\fB\\-\\-min\\-requests\\fR \\fIN\\fR\n"
                    + "the merged report's minimum (default: the reports' own, which must agree)\n"))
        #expect(merge.contains("default: the reports' own, which must agree); above 0.05 needs its %"))
        #expect(!merge.contains("Default:"))
        #expect(MergeCommand.threshold.defaultValue == nil)
        #expect(MergeCommand.minRequests.defaultValue == nil)
    }

    /// A note after the help is a sentence of its own; a channel's settings go once per channel.
    @Test func notesAfterTheHelpAreSentences() {
        #expect(
            Self.section("scan").contains(
                "alertmanager (needed unless the URL's host tells it). Once per channel.\n"))
        #expect(
            Self.section("scan").contains(
                "a channel whose URL is in the file PATH. May be repeated.\n"))
        #expect(
            ManPage.extra(OptionDef("lines", value: "N", help: ["lines to check"], defaultValue: "20"))
                == ". Default: 20.")
        #expect(
            ManPage.extra(OptionDef("tag", value: "T", help: ["a tag."], repeatable: true)) == " May be repeated.")
        #expect(
            ManPage.extra(
                OptionDef("webhook", value: "URL", help: ["a channel"], configKey: "alerts[].url", repeatable: true))
                == ". May be repeated.")
        #expect(
            ManPage.extra(
                OptionDef(
                    "webhook-url-env", value: "NAME", help: ["a channel"], configKey: "alerts[].url_env",
                    repeatable: true))
                == ". May be repeated.")
    }

    /// What a command-line option does to its config key, per kind: a value wins, alerts are
    /// added to, the format is replaced whole, a flag cannot switch a key off.
    @Test func theConfigurationSaysWhatAnOptionDoesToItsKey() {
        let start = Self.page.range(of: ".SH CONFIGURATION\n")!.upperBound
        let rest = Self.page[start...]
        let intro = String(rest[..<rest.range(of: "\n.TP\n")!.lowerBound])
        #expect(!intro.contains("wins over the key"))
        #expect(intro.contains("an option that stands for a single value wins over\nits key."))
        #expect(intro.contains("is one more channel besides the config's alerts."))
        #expect(intro.contains("replaces the config's whole format object"))
        #expect(
            intro.contains("\\-\\-show\\-client\\-keys\ncannot switch off \"show_client_keys\": true in the config."))
    }

    /// Every key of run's config is described: by its option, or by a note.
    @Test func everyConfigKeyIsListedWithWhatItSets() {
        for key in ConfigKeys.runConfig.paths {
            #expect(Self.page.contains(".TP\n" + Roff.bold(key) + "\n"), "\(key)")
            #expect(ManPage.configMeaning(key) != nil, "\(key) has neither an option nor a note")
        }
        #expect(
            Self.page.contains(
                ".TP\n\\fBmin_requests\\fR\nas \\fB\\-\\-min\\-requests\\fR \\fIN\\fR: "
                    + "hours with fewer requests never alert (default 100)\n"))
    }

    @Test func listsEveryExitStatusAndTheFiles() {
        for code in ExitCode.all {
            #expect(Self.page.contains(".TP\n\\fB\(code.rawValue)\\fR\n" + Roff.escape(code.detail) + "\n"))
        }
        #expect(Self.page.contains("\\fI/etc/uaaudit/uaaudit.json\\fR"))
        #expect(Self.page.contains("\\fI/var/lib/uaaudit\\fR"))
    }

    static let escapes: [(String, String)] = [
        ("--json", "\\-\\-json"), ("a\\b", "a\\eb"), (".x\n'y\nz.", "\\&.x\n\\&'y\nz."),
    ]

    @Test(arguments: escapes)
    func roffEscapesHyphensBackslashesAndControlLines(text: String, escaped: String) {
        #expect(Roff.escape(text) == escaped)
    }
}
