import Glibc
import UAAuditCore

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
          scan FILE...      audit logs once; per-hour report (summary, --json, --out)
          explain HOUR ...  one hour on one page: share, cost, split clients, drift
          merge REPORT...   combine the JSON reports of many hosts into one
          run               the hourly job: new lines only, rotation-safe (see cron/)
          state show        what run remembers: offsets, open hours, pending alerts
          alert test        send a test message through each --webhook
          classify UA...    show which class and rule a User-Agent gets
          rules init|test|lint  write rules for your app; test and lint rules files
          doctor [-]        read nginx's config (nginx -T): which logs, which format,
                            what to put in uaaudit's config or add to nginx
          help [COMMAND]    show help for a command
          version           print the version and the commit it was built from

        Run 'uaaudit <command> --help' for a command's options.

        \(ExitCode.helpText)
        """

    static let commands = [
        "scan", "explain", "merge", "run", "state", "alert", "classify", "rules", "doctor", "help", "version",
    ]

    /// Each command's options, so that an option given to the wrong command can say whose it is.
    static let optionsByCommand: [(command: String, specs: [Arguments.Spec])] = [
        ("scan", ScanCommand.specs), ("explain", ExplainCommand.specs), ("merge", MergeCommand.specs),
        ("run", RunCommand.specs), ("state", StateCommand.specs), ("alert", AlertCommand.specs),
        ("classify", ClassifyCommand.specs), ("rules", RulesCommand.specs), ("doctor", DoctorCommand.specs),
    ]

    /// The message for a command that does not exist, with the closest one when one is close.
    static func unknownCommand(_ word: String, doing what: String) -> String {
        let guess = Suggestion.closest(to: word, among: commands).map { "; did you mean '\($0)'?" } ?? ";"
        return "\(what) '\(word)'\(guess) commands are \(commands.joined(separator: ", "))"
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
        case "help", "-h", "--help":
            switch rest.first {
            case "scan": console.out(ScanCommand.help + "\n")
            case "classify": console.out(ClassifyCommand.help + "\n")
            case "rules": console.out(RulesCommand.help + "\n")
            case "run": console.out(RunCommand.help + "\n")
            case "merge": console.out(MergeCommand.help + "\n")
            case "explain": console.out(ExplainCommand.help + "\n")
            case "state": console.out(StateCommand.help + "\n")
            case "alert": console.out(AlertCommand.help + "\n")
            case "doctor": console.out(DoctorCommand.help + "\n")
            case nil, "help", "version": console.out(help + "\n")
            case let other?:
                console.error(unknownCommand(other, doing: "no help for"))
                return ExitCode.usage.rawValue
            }
            status = .success
        case "version", "--version":
            console.out("uaaudit \(version) (commit \(commit))\n")
            status = .success
        default:
            console.error(unknownCommand(command, doing: "unknown command"))
            status = .usage
        }
        return status.rawValue
    }
}
