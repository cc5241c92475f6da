import FoundationEssentials
import UAAuditAudit
import UAAuditInput
import UAAuditReport
import UAAuditRun

/// `uaaudit state show`: the run state in a readable form.
struct StateCommand {
    static let state = RunCommand.state.described(["the state file"])
    static let config = RunCommand.config.described(["the config whose \"state\" to show"])
    static let json = OptionDef(
        "json",
        help: [
            "the same as one JSON object (keys sorted): path,", "version, newest_seen, logs, open_hours,",
            "closed_hours, breached_hours, alerts_pending", "(hour, id, kinds, status, delivered_to,",
            "failures, last_error),", "alerts_sent, alerts_not_alerted, gaps",
        ])
    static let options = [state, config, json, CommonOptions.help]

    static let spec = CommandSpec(
        "state", label: "state show", summary: ["what run remembers: offsets, open hours, pending alerts"],
        usage: ["uaaudit state show (--state FILE | --config FILE) [--json]"],
        about: """
            Prints what uaaudit run remembers: per log the file it follows (device,
            inode, offset) and rotated files still being read; the hours not yet
            closed and the recent closed ones; breached hours waiting to be delivered
            (with their ids and last error, URLs masked), delivered and not alerted;
            lines stamped in the future; logs unreadable run after run; gaps.
            A missing, corrupt or newer-version state file is an error (exit 2) that
            names the file; it is never changed by this command.
            """, options: options, actions: ["show"])

    static let help = """
        \(spec.usageText)

        \(spec.about)

        Options:
        \(OptionHelp.render(options))

        \(ExitCode.helpText(for: [.success, .usage, .encoding]))
        """

    let console: Console

    func run(_ words: [String]) -> ExitCode {
        let args: Arguments
        do {
            args = try Arguments(words, options: StateCommand.options)
        } catch {
            console.error(error.message)
            return .usage
        }
        if args.flag(CommonOptions.help) || args.positional.first != "show" {
            if args.flag(CommonOptions.help) {
                console.out(StateCommand.help + "\n")
                return .success
            }
            if let action = args.positional.first {
                let guess = Suggestion.closest(to: action, among: ["show"]).map { "; did you mean '\($0)'?" }
                console.error(
                    "unknown state action '\(action)'\(guess ?? ";") usage: uaaudit state show (--state FILE | --config FILE)"
                )
            } else {
                console.error("usage: uaaudit state show (--state FILE | --config FILE)")
            }
            return .usage
        }
        var path = args.value(Self.state)
        if path == nil, let config = args.value(Self.config) {
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
        // A typo must not show an empty state as if nothing had run yet; a state that cannot
        // be reached (permissions) is said to be so, not to be missing.
        let exists: Bool
        do {
            exists = try Syscalls.status(path) != nil
        } catch {
            console.error(StateError(path: path, reason: "cannot stat: \(error.description)", access: true).description)
            return .usage
        }
        if !exists {
            console.error(
                "state \(path) does not exist; check --state or the config's \"state\" (uaaudit run creates it)")
            return .usage
        }
        let state: RunState
        do {
            state = try RunState.load(path: path)
        } catch {
            console.error(error.description)
            return .usage
        }
        if args.flag(Self.json) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            guard let bytes = try? encoder.encode(StateJSON(state, path: path)) else {
                console.error("cannot encode the state (an internal error; please report it)")
                return .encoding
            }
            console.out(bytes: [UInt8](bytes) + [0x0A])
            return .success
        }
        // Log paths come from the state (and so from the directories' names): control bytes in
        // them are shown escaped, never sent to the terminal raw.
        console.out(TerminalText.escapeKeepingLines(StateText.render(state, path: path)))
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
            out += "  \(iso)  requests \(h.counts.requests)\n"
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
        if let future = state.totals?.future { out += "lines stamped in the future (ever read): \(future)\n" }
        if let waiting = state.waiting, !waiting.isEmpty {
            let lines = waiting.values.reduce(Int64(0)) { $0 + $1.counts.lines }
            let hours = waiting.keys.sorted()
            out += "waiting for the clock to reach their hours: \(lines) lines in \(hours.count) hours "
            out += "(\(hours.first ?? "") to \(hours.last ?? ""))\n"
        }
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

/// `state show --json`: what the text shows, as data. Paths and errors are as stored (JSON
/// escapes what a terminal would need escaped).
struct StateJSON: Encodable {
    /// A file being read: where, how far, and which file it is.
    struct File: Encodable {
        var path: String
        var offset: Int64
        var size: Int64
        var device: UInt64
        var inode: UInt64

        init(_ t: RunState.Tracked) {
            path = t.path
            offset = t.offset
            size = t.size
            device = t.identity.device
            inode = t.identity.inode
        }
    }
    struct Log: Encodable {
        var log: String
        var current: File?
        var draining: [File]
    }
    struct OpenHour: Encodable {
        var hour: String
        var requests: Int64
    }
    /// A breached hour still to deliver: its hour and the ledger's own entry (channel keys and
    /// last error are kept masked in the state).
    struct Pending: Encodable {
        var hour: String
        var entry: AlertLedger.Entry

        enum CodingKeys: String, CodingKey { case hour }

        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(hour, forKey: .hour)
        }
    }

    var path: String
    var version: Int
    var newestSeen: String?
    var logs: [Log]
    var openHours: [OpenHour]
    var closedHours: Int
    var breachedHours: [String]
    var alertsPending: [Pending]
    var alertsSent: Int
    var alertsNotAlerted: Int
    var gaps: [Report.Gap]

    enum CodingKeys: String, CodingKey {
        case path, version, logs, gaps
        case newestSeen = "newest_seen"
        case openHours = "open_hours"
        case closedHours = "closed_hours"
        case breachedHours = "breached_hours"
        case alertsPending = "alerts_pending"
        case alertsSent = "alerts_sent"
        case alertsNotAlerted = "alerts_not_alerted"
    }

    init(_ state: RunState, path: String) {
        self.path = path
        version = state.version
        newestSeen = state.newestSeen.map { Timestamps.iso8601UTC(seconds: $0) }
        logs = state.logs.sorted { $0.key < $1.key }.map {
            Log(log: $0.key, current: $0.value.current.map(File.init), draining: $0.value.draining.map(File.init))
        }
        let hours = state.hours.compactMap { iso, h in HourKey(iso8601: iso).map { ($0, iso, h) } }
            .sorted { $0.0 < $1.0 }
        openHours = hours.filter { !$0.2.closed }.map {
            OpenHour(hour: $0.1, requests: $0.2.counts.requests)
        }
        closedHours = hours.filter { $0.2.closed }.count
        breachedHours = hours.filter { $0.2.closed && $0.2.breached }.map(\.1)
        let ledger = state.alerts
        alertsPending = ledger.pending.compactMap { hour in ledger.hours[hour].map { Pending(hour: hour, entry: $0) } }
        alertsSent = ledger.hours.values.filter { $0.status == .delivered }.count
        alertsNotAlerted = ledger.hours.values.filter { $0.status == .notAlerted }.count
        gaps = state.gaps
    }
}
