import Foundation
import Testing

/// `uaaudit generate man|bash|zsh`, as a package build calls it, checked by the tools that read
/// the results: man and groff render the page without a warning, zsh parses and registers the
/// completion (the bash script is run for real in UAAuditCLITests/Generate).
@Suite struct GenerateTests {
    static func generate(_ what: String, into dir: Scratch, as name: String) throws -> String {
        let result = try Tool.run(["generate", what])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        return try dir.write(name, result.out)
    }

    @Test(.requires(.groff)) func groffRendersTheManPageWithoutWarnings() throws {
        guard let groff = ExternalTool.find(.groff, test: "groffRendersTheManPageWithoutWarnings") else { return }
        let dir = try Scratch()
        let page = try Self.generate("man", into: dir, as: "uaaudit.1")
        let rendered = try ExternalTool.run(groff, ["-man", "-Tutf8", "-ww", "-z", page])
        #expect(rendered.status == 0)
        #expect(rendered.stderr == "")
    }

    @Test(.requires(.man)) func manShowsThePageWithoutWarnings() throws {
        guard let man = ExternalTool.find(.man, test: "manShowsThePageWithoutWarnings") else { return }
        let dir = try Scratch()
        let page = try Self.generate("man", into: dir, as: "uaaudit.1")
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["MAN_KEEP_FORMATTING"] = nil
        let shown = try ExternalTool.run(man, ["--warnings", "-l", page], environment: environment)
        #expect(shown.status == 0)
        #expect(shown.stderr == "")
        let lines = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "UAAUDIT(1)                       User Commands                      UAAUDIT(1)")
        #expect(lines.contains("COMMANDS"))
        #expect(lines.contains("   uaaudit scan"))
        #expect(lines.contains("       -o, --out FILE"))
        #expect(lines.contains("EXIT STATUS"))
        #expect(lines.allSatisfy { $0.count <= 80 })
    }

    @Test(.requires(.zsh)) func zshParsesAndRegistersTheCompletion() throws {
        guard let zsh = ExternalTool.find(.zsh, test: "zshParsesAndRegistersTheCompletion") else { return }
        let dir = try Scratch()
        let script = try Self.generate("zsh", into: dir, as: "_uaaudit")
        let parsed = try ExternalTool.run(zsh, ["-n", script])
        #expect(parsed.status == 0)
        #expect(parsed.stderr == "")
        // compinit reads the #compdef line of each file on fpath, as it does for vendor-completions.
        let registered = try ExternalTool.run(
            zsh, ["-f", "-c", "fpath=(\(dir.url.path) $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[uaaudit]"])
        #expect(registered.stderr == "")
        #expect(registered.stdout == "_uaaudit\n")
    }

    /// The completion function run by zsh itself, with `_describe` and `_arguments` standing in
    /// for the completion system: what they receive is what zsh made of the script's quoting.
    static func zshCompletion(_ words: [String], in dir: Scratch, zsh: String) throws -> [String] {
        let script = try Self.generate("zsh", into: dir, as: "_uaaudit")
        let driver = try dir.write(
            "driver.zsh",
            """
            _describe() { print -rl -- describe "${(@P)4}" }
            _arguments() { print -rl -- arguments "$@" }
            words=(\(words.map { "'\($0)'" }.joined(separator: " "))); CURRENT=\(words.count)
            source \(script)
            """)
        let result = try ExternalTool.run(zsh, ["-f", driver])
        #expect(result.stderr == "")
        #expect(result.status == 0)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.requires(.zsh)) func zshOffersTheCommandsThenEachCommandsOptions() throws {
        guard let zsh = ExternalTool.find(.zsh, test: "zshOffersTheCommandsThenEachCommandsOptions") else { return }
        let dir = try Scratch()
        let commands = try Self.zshCompletion(["uaaudit", "s"], in: dir, zsh: zsh)
        #expect(
            commands.map { $0.split(separator: ":", maxSplits: 1)[0] } == [
                "describe", "scan", "explain", "merge", "run", "state", "alert", "classify", "rules", "doctor",
                "generate", "help", "version",
            ])
        #expect(commands[1] == "scan:audit logs once; per-hour report (summary, --json, --out)")
        #expect(
            try Self.zshCompletion(["uaaudit", "state", "--st"], in: dir, zsh: zsh) == [
                "arguments", "-s", "-S", "--state=[the state file]:FILE:_files",
                "(-c --config)-c+[the config whose \"state\" to show]:FILE:_files",
                "(-c --config)--config=[the config whose \"state\" to show]:FILE:_files",
                "--json[the same as one JSON object (keys sorted): path, version, newest_seen, logs, open_hours, "
                    + "closed_hours, breached_hours, alerts_pending (hour, id, kinds, status, delivered_to, failures, "
                    + "last_error), alerts_sent, alerts_not_alerted, gaps]",
                "(-h --help)-h[show this help]", "(-h --help)--help[show this help]", "1:action:(show)",
            ])
        let scan = try Self.zshCompletion(["uaaudit", "scan", "-"], in: dir, zsh: zsh)
        #expect(
            scan.contains(
                "(-o --out)-o+[write the JSON report to FILE (atomically); '-' is stdout. "
                    + "No output may be an input or another output]:FILE:_files"))
        #expect(scan.contains("*--webhook=[a channel for alerts; repeat for more channels]:URL: "))
        #expect(scan.last == "*:operand:_files")
    }

    static let usageErrors: [([String], String)] = [
        (["generate"], "uaaudit: usage: uaaudit generate man|bash|zsh\n"),
        (["generate", "man", "bash"], "uaaudit: usage: uaaudit generate man|bash|zsh\n"),
        (["generate", "mna"], "uaaudit: cannot generate 'mna'; did you mean 'man'? usage: uaaudit generate man|bash|zsh\n"),
        (["generate", "fish"], "uaaudit: cannot generate 'fish'; usage: uaaudit generate man|bash|zsh\n"),
        (
            ["generate", "--out", "x"],
            "uaaudit: unknown option --out; --out is an option of scan, merge, run and rules, not of this command; see --help\n"
        ),
    ]

    @Test(arguments: usageErrors)
    func aWrongRequestIsAUsageError(args: [String], stderr: String) throws {
        let result = try Tool.run(args)
        #expect(result.status == 2)
        #expect(result.stderr == stderr)
        #expect(result.stdout.isEmpty)
    }

    @Test func theBashScriptRegistersItsFunction() throws {
        let result = try Tool.run(["generate", "bash"])
        #expect(result.out.hasPrefix("# bash completion for uaaudit"))
        #expect(result.out.hasSuffix("\ncomplete -F _uaaudit uaaudit\n"))
    }
}
