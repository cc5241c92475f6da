import UAAuditInput
import UAAuditRun

/// Refuses, before anything is read or written, a command whose outputs would overwrite one
/// of its inputs or each other, and an input given twice (it would be counted twice).
///
/// Paths are compared as ``PathIdentity`` values: the same device and inode where the file
/// exists, the same resolved path otherwise. `-` as stdout is never compared; `-` as stdin is
/// compared by the file, FIFO or pipe it reads (``PathIdentity/ofStandardInput()``).
enum OutputGuard {
    /// A path and what it is, as messages name it: "--out", "the state", "the input".
    struct Named {
        let role: String
        /// The path as given (messages name it).
        let path: String
        /// Where it really reads or writes (an output's links followed, `-` for stdout).
        var target: String
        init(_ role: String, _ path: String) {
            self.role = role
            self.path = path
            self.target = path
        }
        /// The path as messages show it: `-` is named for what it is.
        var shown: String { path == "-" && target == "-" ? "- (standard input)" : path }
    }

    /// Resolves each output (``OutputPath``): `-`, /dev/stdout and links to it become `-`,
    /// any other link the file it leads to. Refuses an existing output that is not a regular
    /// file, and two outputs on stdout (`json`: --json prints the report there too).
    static func resolve(_ outputs: [Named], json: Bool) throws(CLIError) -> [Named] {
        var onStandardOutput = json ? [PolicyOptions.json.flag] : []
        var resolved: [Named] = []
        for var output in outputs {
            let path: OutputPath
            do {
                path = try OutputPath.resolve(output.path)
            } catch {
                throw refusal(output, error)
            }
            switch path {
            case .standardOutput:
                output.target = "-"
                onStandardOutput.append("\(output.role) \(output.path)")
            case .file(let file):
                output.target = file
            }
            resolved.append(output)
        }
        if onStandardOutput.count > 1 {
            throw CLIError(
                "\(onStandardOutput.joined(separator: " and ")) would \(onStandardOutput.count == 2 ? "both" : "all") write to stdout; give all but one a file path (nothing was written)"
            )
        }
        return resolved
    }

    /// Where a command's resolved outputs go, for the code that writes them.
    struct Destinations {
        let outputs: [Named]
        /// The report is printed on stdout: --json, or `--out -`.
        let printJSON: Bool
        /// Something goes to stdout, so the summary does not.
        var stdoutTaken: Bool { printJSON || outputs.contains { $0.target == "-" } }

        init(_ outputs: [Named], json: Bool) {
            self.outputs = outputs
            printJSON = json || outputs.contains { $0.role == PolicyOptions.out.flag && $0.target == "-" }
        }

        /// The file (links followed) or `-` that `role` writes to; nil when not given.
        func target(_ role: String) -> String? { outputs.first { $0.role == role }?.target }
    }

    /// - Parameters:
    ///   - inputs: the files counted (logs, reports): each may be given once.
    ///   - readOnly: other files read (config, rules, nginx config) that must not be overwritten.
    ///   - outputs: every other file the command may write.
    ///   - state: a file read and written (run's state): no input, and no other output.
    static func check(inputs: [Named], readOnly: [Named] = [], state: Named? = nil, outputs: [Named])
        throws(CLIError)
    {
        var seen: [PathIdentity: Named] = [:]
        for input in inputs {
            // `-` is standard input: when it is a file redirected with `<`, that file.
            guard let identity = input.target == "-" ? PathIdentity.ofStandardInput() : PathIdentity.of(input.target)
            else { continue }
            if let earlier = seen[identity] {
                throw CLIError(
                    earlier.path == input.path
                        ? "\(input.role) \(input.shown) is given twice; give each input once (it would be counted twice)"
                        : "\(input.role) \(input.shown) is \(earlier.shown) again (the same file); give each input once (it would be counted twice)"
                )
            }
            seen[identity] = input
        }
        for other in readOnly where other.target != "-" {
            let identity = PathIdentity.of(other.target)
            if seen[identity] == nil { seen[identity] = other }
        }
        // The state is written, so it may not be an input; it is read too, so no other
        // output may be written over it.
        if let state, state.target != "-" {
            let identity = PathIdentity.of(state.target)
            if let input = seen[identity] { throw overwrite(state, input) }
            seen[identity] = state
        }
        var written: [PathIdentity: Named] = [:]
        for output in outputs where output.target != "-" {
            let identity = PathIdentity.of(output.target)
            if let input = seen[identity] { throw overwrite(output, input) }
            if let earlier = written[identity] {
                throw CLIError(
                    "\(earlier.role) \(earlier.path) and \(output.role) \(output.path) are the same file; give each its own path (nothing was written)"
                )
            }
            written[identity] = output
        }
    }

    private static func refusal(_ output: Named, _ problem: OutputPath.Problem) -> CLIError {
        switch problem {
        case .notARegularFile(let kind, let via):
            CLIError(
                "\(output.role) \(output.path) is \(kind.rawValue)\(via.map { " (via \($0))" } ?? ""), not a regular file; give a file path, or - for stdout (nothing was written)"
            )
        case .tooManyLinks:
            CLIError(
                "\(output.role) \(output.path): too many symbolic links (a loop?); give a file path (nothing was written)"
            )
        case .plantedLink(let link, let owner, let directory):
            CLIError(plantedLink(output, link: link, owner: owner, directory: directory))
        }
    }

    /// Why a link another user may have planted is not followed, and what to do.
    static func plantedLink(_ output: Named, link: String, owner: UInt32, directory: String) -> String {
        let via = link == output.path ? "is" : "goes through"
        return "\(output.role) \(output.path) \(via) the symbolic link \(link), owned by "
            + "\(Syscalls.userName(owner)) in the sticky, world-writable directory \(directory): uaaudit follows "
            + "such a link only when you or the directory's owner own it (as the kernel's protected_symlinks "
            + "does), since another user may have planted it; give a path in a directory only you can write, "
            + "or remove the link (nothing was written)"
    }

    /// Refuses a state or lock path that goes through a link another user may have planted
    /// (``OutputPath/plantedLink(on:)``); these are written in place, not resolved like outputs.
    static func refusePlantedLinks(_ paths: [Named]) throws(CLIError) {
        for named in paths where named.path != "-" {
            if case .plantedLink(let link, let owner, let directory)? = OutputPath.plantedLink(on: named.path) {
                throw CLIError(plantedLink(named, link: link, owner: owner, directory: directory))
            }
        }
    }

    private static func overwrite(_ output: Named, _ input: Named) -> CLIError {
        CLIError(
            "\(output.role) \(output.path) would overwrite \(input.role) \(input.shown); choose another path (nothing was written)"
        )
    }

    /// Files a command reads besides its inputs that no output may overwrite: the files the
    /// nginx config includes (the main file is named by the caller) and the alert channels'
    /// URL and secret files.
    static func otherReads(nginxConf: String?, channels: [AlertChannel]) -> [Named] {
        var named: [Named] = []
        if let nginxConf, let tree = try? NginxConfigTree.load(path: nginxConf) {
            named += tree.files.dropFirst().map { .init("the nginx config's include", $0) }
        }
        for channel in channels {
            if case .file(let path) = channel.url { named.append(.init("the webhook URL file", path)) }
            if case .file(let path)? = channel.secret { named.append(.init("the webhook secret file", path)) }
        }
        return named
    }

    /// Refuses for `run` an output that the next run would take for a rotated log
    /// (`access.log.1`, `access.log-20261129.gz`, …) and read as log lines.
    static func checkRotation(outputs: [Named], logs: [String]) throws(CLIError) {
        for output in outputs where output.target != "-" {
            for log in logs where RotationCandidates.isRotatedSibling(output.target, of: log) {
                throw CLIError(
                    "\(output.role) \(output.path) would be read as a rotated \(log) (run reads the log's rotated files after a rotation); choose another path (nothing was written)"
                )
            }
        }
    }

    /// Refuses a metrics path node_exporter would never read.
    static func checkProm(_ path: String?, role: String) throws(CLIError) {
        guard let path, !path.hasSuffix(".prom") else { return }
        throw CLIError(
            "\(role) \(path) must end in .prom: node_exporter's textfile collector reads only *.prom files")
    }
}
