import Glibc
import UAAuditInput

/// The command-line tool: picks the subcommand, and alone prints and chooses the exit status.
public enum UAAuditCLI {
    /// The repository's VERSION (written into `BuildInfo` before each build).
    public static let version = BuildInfo.version
    /// The short git commit the binary was built from, or "unknown".
    public static let commit = BuildInfo.commit

    static let help = """
        uaaudit \(version): audit nginx access logs for User-Agent consistency.

        Usage: uaaudit <command> [options]

        Commands:
        \(CommandSpec.listing)

        Run 'uaaudit <command> --help' for a command's options.

        \(ExitCode.helpText)
        """

    static let commands = CommandSpec.all.map(\.name)

    /// The `--help` text of a command (the top-level help for `help` and `version`); nil for
    /// a command that does not exist.
    static func helpText(of command: String) -> String? {
        switch command {
        case "scan": ScanCommand.help
        case "explain": ExplainCommand.help
        case "merge": MergeCommand.help
        case "run": RunCommand.help
        case "state": StateCommand.help
        case "alert": AlertCommand.help
        case "classify": ClassifyCommand.help
        case "rules": RulesCommand.help
        case "doctor": DoctorCommand.help
        case "generate": GenerateCommand.help
        case "help", "version": help
        default: nil
        }
    }

    /// The message for a command that does not exist, with the closest one when one is close.
    static func unknownCommand(_ word: String, doing what: String) -> String {
        let guess = Suggestion.closest(to: word, among: commands).map { "; did you mean '\($0)'?" } ?? ";"
        return "\(what) '\(word)'\(guess) commands are \(commands.joined(separator: ", "))"
    }

    /// Runs the tool with its arguments as the kernel gave them (bytes): one that is not UTF-8
    /// is exit 2, named with its bytes escaped, since a path decoded with U+FFFD in it would
    /// name another file.
    public static func run(rawArguments: [[UInt8]], environment: [String: String]) -> Int32 {
        var arguments: [String] = []
        for (i, bytes) in rawArguments.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                Console().error(
                    "argument \(i + 1) ('\(TerminalText.escape(ReportText.render(bytes)))') is not UTF-8: uaaudit "
                        + "takes paths and values in UTF-8; rename the file, or give a symbolic link to it with a "
                        + "UTF-8 name")
                return ExitCode.usage.rawValue
            }
            arguments.append(text)
        }
        return run(arguments, environment: environment)
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        Syscalls.returnLargeBlocksToTheSystem()
        let console = Console()
        guard let command = arguments.first else {
            console.err(raw: help + "\n")
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        let status: ExitCode
        switch command {
        case "scan":
            status = ScanCommand(console: console, environment: environment).run(rest)
        case "run":
            status = RunCommand(console: console, environment: environment).run(rest)
        case "explain":
            status = ExplainCommand(console: console, environment: environment).run(rest)
        case "merge":
            status = MergeCommand(console: console, environment: environment).run(rest)
        case "alert":
            status = AlertCommand(console: console, environment: environment).run(rest)
        case "state":
            status = StateCommand(console: console).run(rest)
        case "classify":
            status = ClassifyCommand(console: console).run(rest)
        case "rules":
            status = RulesCommand(console: console).run(rest)
        case "doctor":
            status = DoctorCommand(console: console, environment: environment).run(rest)
        case "generate":
            status = GenerateCommand(console: console).run(rest)
        case "help", "-h", "--help":
            // `help --help` is the general help; `help scan` is scan's.
            let topic = rest.first.map { ["-h", "--help"].contains($0) ? "help" : $0 } ?? "help"
            guard let text = helpText(of: topic) else {
                console.error(unknownCommand(topic, doing: "no help for"))
                return ExitCode.usage.rawValue
            }
            if rest.count > 1, !["-h", "--help"].contains(rest[1]) || rest.count > 2 {
                console.error(
                    "help takes one command, not '\(TerminalText.escape(rest[1], limit: 40))'; see uaaudit help")
                return ExitCode.usage.rawValue
            }
            console.out(text + "\n")
            status = .success
        case "version", "--version":
            if let extra = rest.first {
                console.error("version takes no options or operands, not '\(TerminalText.escape(extra, limit: 40))'")
                return ExitCode.usage.rawValue
            }
            console.out("uaaudit \(version) (commit \(commit))\n")
            status = .success
        default:
            console.error(unknownCommand(command, doing: "unknown command"))
            status = .usage
        }
        // A closed pipe ends quietly; any other failed write to stdout is an output error.
        if let failure = console.stdoutFailure {
            console.error("cannot write to standard output: \(failure)")
            return max(status.rawValue, ExitCode.output.rawValue)
        }
        return status.rawValue
    }
}
