import UAAuditCore

/// Refuses, before anything is read or written, a command whose outputs would overwrite one
/// of its inputs or each other, and an input given twice (it would be counted twice).
///
/// Paths are compared as ``PathIdentity`` values: the same device and inode where the file
/// exists, the same resolved path otherwise. `-` (stdin or stdout) is never compared.
enum OutputGuard {
    /// A path and what it is, as messages name it: "--out", "the state", "the input".
    struct Named {
        let role: String
        let path: String
        init(_ role: String, _ path: String) {
            self.role = role
            self.path = path
        }
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
        for input in inputs where input.path != "-" {
            let identity = PathIdentity.of(input.path)
            if let earlier = seen[identity] {
                throw CLIError(
                    earlier.path == input.path
                        ? "\(input.role) \(input.path) is given twice; give each input once (it would be counted twice)"
                        : "\(input.role) \(input.path) is \(earlier.path) again (the same file); give each input once (it would be counted twice)"
                )
            }
            seen[identity] = input
        }
        for other in readOnly where other.path != "-" {
            let identity = PathIdentity.of(other.path)
            if seen[identity] == nil { seen[identity] = other }
        }
        // The state is written, so it may not be an input; it is read too, so no other
        // output may be written over it.
        if let state, state.path != "-" {
            let identity = PathIdentity.of(state.path)
            if let input = seen[identity] { throw overwrite(state, input) }
            seen[identity] = state
        }
        var written: [PathIdentity: Named] = [:]
        for output in outputs where output.path != "-" {
            let identity = PathIdentity.of(output.path)
            if let input = seen[identity] { throw overwrite(output, input) }
            if let earlier = written[identity] {
                throw CLIError(
                    "\(earlier.role) \(earlier.path) and \(output.role) \(output.path) are the same file; give each its own path (nothing was written)"
                )
            }
            written[identity] = output
        }
    }

    private static func overwrite(_ output: Named, _ input: Named) -> CLIError {
        CLIError(
            "\(output.role) \(output.path) would overwrite \(input.role) \(input.path); choose another path (nothing was written)"
        )
    }

    /// Refuses a metrics path node_exporter would never read.
    static func checkProm(_ path: String?, role: String) throws(CLIError) {
        guard let path, !path.hasSuffix(".prom") else { return }
        throw CLIError(
            "\(role) \(path) must end in .prom: node_exporter's textfile collector reads only *.prom files")
    }
}
