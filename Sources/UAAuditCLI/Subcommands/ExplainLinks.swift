import FoundationEssentials
import UAAuditInput
import UAAuditRun

/// The ``AlertLinks`` of a scan or a run: the report's absolute path when one was written to a
/// file, else what `uaaudit explain` needs to make the same figures (the options it shares
/// with the command, and the logs), with relative paths made absolute so that the command
/// works from any directory.
enum ExplainLinks {
    /// Options of the command that `explain` does not take or that do not change the figures.
    static let ignored: Set<String> = ["json", "help", "threads"]

    static func scan(_ args: Arguments, reportPath: String?) -> AlertLinks {
        let known = Set(ExplainCommand.options.map(\.name)).subtracting(ignored)
        var words: [String] = []
        for (option, value) in args.ordered where known.contains(option.name) {
            // A file named by a relative path is made absolute (the rules, the nginx config).
            words += ["--\(option.name)", option.completion == .file && value != "-" ? absolute(value) : value]
        }
        for name in args.flags.sorted() where known.contains(name) { words.append("--\(name)") }
        return links(reportPath, otherwise: words + args.positional.map { $0 == "-" ? $0 : absolute($0) })
    }

    /// The run's effective settings (``RunJob/explainOptions``, from the flags or the config),
    /// then its logs.
    static func run(_ job: RunJob) -> AlertLinks {
        links(job.reportPath, otherwise: job.explainOptions + job.settings.logs.map(absolute))
    }

    private static func links(_ reportPath: String?, otherwise words: [String]) -> AlertLinks {
        let file = reportPath.flatMap { OutputPath.standardOutputNames.contains($0) ? nil : absolute($0) }
        return AlertLinks(reportPath: file, otherwise: words)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
