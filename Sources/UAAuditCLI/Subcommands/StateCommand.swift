import UAAuditCore

/// `uaaudit state show`: the run state in a readable form.
struct StateCommand {
    static let specs: [Arguments.Spec] = [
        .init(name: "state", short: nil, takesValue: true),
        .init(name: "config", short: "c", takesValue: true),
        .init(name: "help", short: "h", takesValue: false),
    ]

    static let help = """
        Usage: uaaudit state show (--state FILE | --config FILE)

        Prints what uaaudit run remembers: per log the file it follows (device,
        inode, offset) and rotated files still being read; the hours not yet
        closed and the recent closed ones; breached hours waiting to be delivered
        (with their ids and last error, URLs masked), delivered and not alerted;
        lines stamped in the future; logs unreadable run after run; gaps.
        A corrupt or newer-version state file is an error that names the file;
        it is never changed by this command.

        \(ExitCode.helpText(for: [.success, .usage]))
        """

    let console: Console

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, specs: StateCommand.specs)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag("help") || args.positional.first != "show" {
            if args.flag("help") {
                console.out(StateCommand.help + "\n")
                return .success
            }
            console.error("usage: uaaudit state show (--state FILE | --config FILE)")
            return .usage
        }
        var path = args.value("state")
        if path == nil, let config = args.value("config") {
            do {
                path = try RunConfig.load(path: config).state
            } catch {
                console.error(error.description)
                return .usage
            }
        }
        guard let path else {
            console.error("which state? give --state FILE or --config FILE")
            return .usage
        }
        let state: RunState
        do {
            state = try RunState.load(path: path)
        } catch {
            console.error(error.description)
            return .usage
        }
        console.out(StateText.render(state, path: path))
        return .success
    }
}

/// The readable form of a state file; text from logs is escaped.
enum StateText {
    static func render(_ state: RunState, path: String) -> String {
        var out = "state \(path) (version \(state.version))\n"
        if let newest = state.newestSeen { out += "newest request seen: \(Timestamps.iso8601UTC(seconds: newest))\n" }
        out += "\nlogs:\n"
        if state.logs.isEmpty { out += "  (none read yet)\n" }
        for (log, entry) in state.logs.sorted(by: { $0.key < $1.key }) {
            out += "  \(TerminalText.escape(log))\n"
            if let c = entry.current {
                out +=
                    "    reading \(c.path) at byte \(c.offset) of \(c.size) (dev \(c.identity.device), inode \(c.identity.inode))\n"
            }
            for d in entry.draining {
                out += "    rotated \(d.path) read to byte \(d.offset) of \(d.size) (inode \(d.identity.inode))\n"
            }
        }
        let hours = state.hours.compactMap { iso, h in HourKey(iso8601: iso).map { ($0, iso, h) } }.sorted {
            $0.0 < $1.0
        }
        let open = hours.filter { !$0.2.closed }
        out += "\nopen hours: \(open.isEmpty ? "none" : "")\n"
        for (_, iso, h) in open {
            out += "  \(iso)  requests \(h.classes.values.reduce(0, +) + h.errors)\n"
        }
        let closed = hours.filter { $0.2.closed }
        out += "closed hours kept: \(closed.count)"
        let breached = closed.filter { $0.2.breached }.map(\.1)
        out += breached.isEmpty ? "\n" : ", breached: \(breached.joined(separator: ", "))\n"
        let ledger = state.alerts
        let pending = ledger.pending
        out += "\nbreached hours pending delivery: \(pending.isEmpty ? "none" : "")\n"
        for hour in pending {
            guard let entry = ledger.hours[hour] else { continue }
            out += "  \(hour)  id \(entry.id.isEmpty ? "(given by the next run)" : entry.id)"
            out += entry.deliveredTo.isEmpty ? "" : ", taken by \(entry.deliveredTo.count) channel(s)"
            out += entry.failures > 0 ? ", \(entry.failures) refused message(s)" : ""
            out += entry.lastError.map { ", last error: \(TerminalText.escape($0))" } ?? ""
            out += "\n"
        }
        let delivered = ledger.hours.values.filter { $0.status == .delivered }.count
        let notAlerted = ledger.hours.values.filter { $0.status == .notAlerted }.count
        out += "breached hours delivered: \(delivered); not alerted (metrics only): \(notAlerted)\n"
        if let future = state.totals?.future { out += "lines stamped in the future (in no hour): \(future)\n" }
        if let since = state.unreadableSince, !since.isEmpty {
            out += "\nlogs unreadable, run after run:\n"
            for (log, time) in since.sorted(by: { $0.key < $1.key }) {
                out += "  \(TerminalText.escape(log)) since \(Timestamps.iso8601UTC(seconds: time))\n"
            }
        }
        if !state.gaps.isEmpty {
            out += "\ngaps (bytes that could not be read):\n"
            for gap in state.gaps {
                let to = gap.toOffset.map(String.init) ?? "unknown"
                out += "  \(gap.detectedAt) \(gap.file) bytes \(gap.fromOffset)-\(to): \(gap.reason)\n"
            }
        }
        return out
    }
}
