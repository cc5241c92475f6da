import FoundationEssentials
import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// What `uaaudit run` remembers between runs (one JSON file, versioned, written atomically 0600).
///
/// Per log: where reading stopped (file identity and the offset after the last complete line)
/// and rotated files not yet finished. Per hour: the tallies, whether the hour is closed, and
/// lines that came late. The alert ledger and the alerts not yet delivered.
///
/// The version moves only when older code could not read a state (CONTRACTS: state files).
/// Version 2 keeps the alert ledger by hour (`alerts`, an ``AlertLedger``) instead of version
/// 1's `alerts_sent` and `alerts_pending` by message; a version 1 state is migrated when it is
/// loaded (``RunStateMigration``). Optional keys older code ignores: `totals`, `rules`, an hour's
/// `insight` and `incomplete`, `unreadable_since`, a log's `known` files, a tracked
/// file's `checkpoints`, `target` and `recent_lines`, a checkpoint's `first_line`, a gap's
/// `uncertain`.
package struct RunState: Codable, Equatable, Sendable {
    static let currentVersion = 2

    package var version: Int = RunState.currentVersion
    package var logs: [String: LogState] = [:]
    package var hours: [String: HourState] = [:]
    /// The newest request time seen in any log (seconds since the epoch).
    package var newestSeen: Int64?
    /// Malformed lines per run hour ("2026-11-29T17:00:00Z" of the run), kept for the history window.
    var malformed: [String: Int64] = [:]
    var malformedSamples: [Report.SampleEntry] = []
    package var gaps: [Report.Gap] = []
    /// Every breached hour, pending or delivered or not alerted.
    package var alerts = AlertLedger()
    /// Per configured log that the last runs could not read: since when (seconds since the
    /// epoch). Past ``RunSettings/unreadableHoldSeconds`` it no longer holds hours open.
    package var unreadableSince: [String: Int64]? = nil
    /// Counts since totals began, for the Prometheus counters (absent from states written
    /// before uaaudit kept them; they then start at the next run).
    package var totals: RunTotals?
    /// The clock (`now`) of the last run that believed its clock: a later run whose clock is
    /// well behind it does not close, prune or page (``RunEngine/ClockHold``).
    var lastRunClock: Int64? = nil
    /// Lines read stamped more than the history window ahead of the clock, per hour (their
    /// classes, errors and out of scope; no UAs): counted into that hour when the clock
    /// reaches it (``RunEngine/FutureLines``). Absent while there are none.
    package var waiting: [String: HourState]? = nil
    /// The fingerprint of the client salt the hours' client sets were keyed with
    /// (``ClientSalt``); absent: the default salt (the only one before salts were added).
    var clientSalt: String? = nil
    /// A digest of the rules the hours were counted with (``ReportIdentity/rulesDigest(_:)``):
    /// a run with other rules says so (``RunEngine/noteRules(_:rules:)``). Absent from states
    /// written before uaaudit recorded it.
    var rules: String? = nil

    enum CodingKeys: String, CodingKey {
        case version, logs, hours, malformed, gaps, totals, alerts, waiting, rules
        case clientSalt = "client_salt"
        case unreadableSince = "unreadable_since"
        case newestSeen = "newest_seen"
        case lastRunClock = "last_run_clock"
        case malformedSamples = "malformed_samples"
    }

    init() {}

    /// The key of `logs` that `log` continues: `log` itself, else the key spelled otherwise
    /// for the same file (`access.log` and `$PWD/access.log`, a symlink), by resolved path, so
    /// that one log is never counted twice under two names. The key stays as first written
    /// (the state's shape, and its version, do not change).
    func logKey(for log: String) -> String {
        if logs[log] != nil { return log }
        let resolved = PathIdentity.resolved(log)
        return logs.keys.sorted().first { PathIdentity.resolved($0) == resolved } ?? log
    }

    /// Where reading of one configured log path stands.
    package struct LogState: Codable, Equatable, Sendable {
        /// The file at the log's path when it was last read.
        package var current: Tracked?
        /// Rotated files that may still get lines (nginx writes to a renamed file until it reopens).
        package var draining: [Tracked] = []
        /// Every file of the log (the live one and its rotated siblings) as the last run saw
        /// them: a file found again unchanged, or a copy of one (by content), is not new.
        /// Absent from states written before uaaudit kept it: then "new" means modified later.
        var known: [KnownFile]? = nil

        enum CodingKeys: String, CodingKey {
            case current, draining, known
        }
    }

    /// A file of a log as a run saw it: where it was, its size and time, and its first bytes.
    struct KnownFile: Codable, Equatable, Sendable {
        var identity: FileIdentity
        var size: Int64
        var modified: Int64

        init(identity: FileIdentity, size: Int64, modified: Int64) {
            self.identity = identity
            self.size = size
            self.modified = modified
        }
    }

    package struct Tracked: Codable, Equatable, Sendable {
        package var identity: FileIdentity
        /// Bytes read: the offset after the last complete line.
        package var offset: Int64
        /// Size and modification time (ns) when last seen.
        package var size: Int64
        var modified: Int64
        package var path: String
        /// Hashes of the content read, chunk by chunk (line-aligned, about 64 KiB each), the
        /// last ending at `offset`: a log found shorter is checked against them. Absent from
        /// states written before uaaudit kept them, and for rotated files.
        var checkpoints: [Checkpoint]? = nil
        /// The file the log's path named through a symbolic link when it was read (cronolog's
        /// `access.log -> access-2026-12-07.log`): once the link points elsewhere, the old
        /// target is looked at too, and its unread tail read. Absent when the path is no link.
        var target: String? = nil
        /// A fingerprint of each of the last lines read (``LineFingerprints``), the last
        /// ending at `offset`: a log cut in place is found cut at the very line. Absent from
        /// states written before uaaudit kept them (then a cut inside a chunk leaves an
        /// `uncertain` gap), and for rotated files.
        var recentLines: RecentLines? = nil

        enum CodingKeys: String, CodingKey {
            case identity, offset, size, modified, path, checkpoints, target
            case recentLines = "recent_lines"
        }
    }

    /// The fingerprints of the lines from `start` (a line start) to the tracked offset, 3
    /// bytes each (``LineFingerprints/width``), in order; base64 in the state.
    struct RecentLines: Codable, Equatable, Sendable {
        var start: Int64
        var hashes: [UInt8]

        init(start: Int64, hashes: [UInt8]) {
            self.start = start
            self.hashes = hashes
        }

        /// How many lines.
        var count: Int { hashes.count / LineFingerprints.width }

        /// The fingerprint of line `i`.
        subscript(i: Int) -> UInt32 {
            let at = i * LineFingerprints.width
            return UInt32(hashes[at]) << 16 | UInt32(hashes[at + 1]) << 8 | UInt32(hashes[at + 2])
        }

        /// The first `n` lines.
        func prefix(_ n: Int) -> RecentLines {
            RecentLines(start: start, hashes: Array(hashes.prefix(n * LineFingerprints.width)))
        }

        enum CodingKeys: String, CodingKey {
            case start, hashes
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            start = try container.decode(Int64.self, forKey: .start)
            let text = try container.decode(String.self, forKey: .hashes)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .hashes, in: container, debugDescription: "not base64")
            }
            hashes = [UInt8](data)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(start, forKey: .start)
            try container.encode(Data(hashes).base64EncodedString(), forKey: .hashes)
        }
    }

    /// The hash of one chunk of content read: from the previous checkpoint's end (or 0) to `end`.
    struct Checkpoint: Codable, Equatable, Sendable {
        var end: Int64
        var hash: String
        /// The hash of the chunk's first line (``Checkpoints/firstLine(of:from:to:)``): a log cut
        /// in place just before the chunk and written on starts there with another line. Absent
        /// from states written before uaaudit kept it.
        var firstLine: String? = nil

        enum CodingKeys: String, CodingKey {
            case end, hash
            case firstLine = "first_line"
        }

        init(end: Int64, hash: String, firstLine: String? = nil) {
            self.end = end
            self.hash = hash
            self.firstLine = firstLine
        }
    }

    /// An hour as the state keeps it: its counts (``HourCounts``, saved at the hour's top level
    /// as before they had a type of their own), and what `run` decided of it.
    package struct HourState: Codable, Equatable, Sendable {
        package var counts = HourCounts()
        /// Lines that arrived after the hour closed (counted, not re-alerted).
        var late: Int64 = 0
        package var closed = false
        /// Whether the hour breached when it closed.
        package var breached = false
        /// True when the hour closed while a log that may hold its lines could not be read.
        var incomplete: Bool? = nil
        /// True when the hour was already older than the history window when first read
        /// (``RunEngine/isBackfill``): reported by the run that read it, never alerted, then pruned.
        var backfill: Bool? = nil
        /// True when late alert-class lines arrived for the hour, closed healthy, and no run has
        /// decided it again on them yet (``RunEngine/redecideIncomplete``).
        var redecide: Bool? = nil

        enum CodingKeys: String, CodingKey {
            case late, closed, breached, incomplete, backfill, redecide
        }

        init(counts: HourCounts = HourCounts(), late: Int64 = 0, closed: Bool = false, breached: Bool = false) {
            self.counts = counts
            self.late = late
            self.closed = closed
            self.breached = breached
        }

        package init(from decoder: any Decoder) throws {
            counts = try HourCounts(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            late = try c.decode(Int64.self, forKey: .late)
            closed = try c.decode(Bool.self, forKey: .closed)
            breached = try c.decode(Bool.self, forKey: .breached)
            incomplete = try c.decodeIfPresent(Bool.self, forKey: .incomplete)
            backfill = try c.decodeIfPresent(Bool.self, forKey: .backfill)
            redecide = try c.decodeIfPresent(Bool.self, forKey: .redecide)
        }

        package func encode(to encoder: any Encoder) throws {
            try counts.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(late, forKey: .late)
            try c.encode(closed, forKey: .closed)
            try c.encode(breached, forKey: .breached)
            try c.encodeIfPresent(incomplete, forKey: .incomplete)
            try c.encodeIfPresent(backfill, forKey: .backfill)
            try c.encodeIfPresent(redecide, forKey: .redecide)
        }
    }
}

/// Why a state file could not be used; it is never overwritten then.
package struct StateError: Error, Equatable, CustomStringConvertible {
    let path: String
    let reason: String
    /// The file could not be reached or read (permissions, I/O): its content may be sound, so
    /// the advice is to fix access, not to move it away (a fresh state reads every log from
    /// its start again, counting it all twice).
    var access = false

    package init(path: String, reason: String, access: Bool = false) {
        self.path = path
        self.reason = reason
        self.access = access
    }

    package var description: String {
        access
            ? "state file \(path): \(reason); it was left as it is (give the user that runs uaaudit access to it and its directory; do not move it away: a fresh state reads every log from its start again)"
            : "state file \(path): \(reason); it was left as it is (move it away to start afresh)"
    }
}

extension RunState {
    /// Reads the state at `path`; a missing file is a fresh state. Anything but a regular file
    /// (a FIFO would block the read for ever, a device never end) is an error.
    package static func load(path: String) throws(StateError) -> RunState {
        let status: FileStatus?
        do {
            status = try Syscalls.status(path)
        } catch {
            throw StateError(path: path, reason: "cannot stat: \(error.description)", access: true)
        }
        guard let status else { return RunState() }
        guard status.isRegular else {
            let kind = Syscalls.fileKind(path, followingLinks: true) ?? .other
            throw StateError(
                path: path, reason: kind == .other ? "is not a regular file" : "is \(kind.rawValue), not a regular file"
            )
        }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.readAll(path: path, limit: 256 << 20)
        } catch {
            throw StateError(path: path, reason: "cannot read: \(error.reason)", access: true)
        }
        return try decode(bytes, path: path)
    }

    /// Decodes state JSON (`path` names it in messages): a clear error for truncated, corrupt
    /// or newer-version content.
    static func decode(_ bytes: [UInt8], path: String) throws(StateError) -> RunState {
        struct Version: Decodable { var version: Int? }
        // One parse, which every decode below reads. A key given twice is no state a run wrote.
        var duplicate: String?
        let json: JSONValue
        do throws(JSONValue.SyntaxError) {
            json = try JSONValue.parse(bytes, firstDuplicate: &duplicate)
        } catch {
            throw StateError(path: path, reason: "is not valid JSON: \(JSONErrors.describe(error, in: bytes))")
        }
        if let duplicate { throw StateError(path: path, reason: "is corrupt: \(DuplicateKeys.message(duplicate))") }
        guard let version = try? JSONValueDecoder.decode(Version.self, from: json) else {
            throw StateError(path: path, reason: "is not a state object")
        }
        guard let v = version.version else { throw StateError(path: path, reason: "has no version") }
        if v > currentVersion {
            throw StateError(path: path, reason: "is version \(v), newer than this uaaudit reads (\(currentVersion))")
        }
        let state: RunState
        do {
            state =
                v < currentVersion
                ? try RunStateMigration.decode(version: v, json)
                : try JSONValueDecoder.decode(RunState.self, from: json)
        } catch {
            throw StateError(path: path, reason: "is corrupt: \(JSONErrors.describe(error))")
        }
        if let problem = state.impossibleValue() ?? state.outOfRangeValue() {
            throw StateError(path: path, reason: "is corrupt: \(problem)")
        }
        return state
    }

    /// A value no run writes (a hand edit, a damaged file): what and where, or nil. Checked on
    /// load, so that a bad offset or fingerprint length is exit 2 with its name, not a trap
    /// or a huge allocation later.
    func impossibleValue() -> String? {
        // Class names come from rules files: another one would reach reports, metrics and terminals.
        for (iso, hour) in hours.sorted(by: { $0.key < $1.key }) + (waiting ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let name = hour.counts.classes.keys.sorted().first(where: { !RuleSet.isCountable($0) }) {
                return "hour \(iso): class \(name.debugDescription) is no name a rules file can give"
            }
        }
        for (log, state) in logs.sorted(by: { $0.key < $1.key }) {
            for tracked in [state.current].compactMap({ $0 }) + state.draining {
                let name = "log \(log), file \(tracked.path)"
                if tracked.offset < 0 { return "\(name): offset \(tracked.offset) is negative" }
                if tracked.size < 0 { return "\(name): size \(tracked.size) is negative" }
                let bytes = tracked.identity.fingerprintBytes
                if bytes < 0 || bytes > FileIdentity.maxFingerprintBytes {
                    return "\(name): fingerprint_bytes \(bytes) is outside 0...\(FileIdentity.maxFingerprintBytes)"
                }
                if let lines = tracked.recentLines {
                    guard lines.start >= 0, lines.start <= tracked.offset else {
                        return
                            "\(name): recent_lines start \(lines.start) is not between 0 and the offset \(tracked.offset)"
                    }
                    guard lines.hashes.count % LineFingerprints.width == 0 else {
                        return
                            "\(name): recent_lines hashes are \(lines.hashes.count) bytes, not \(LineFingerprints.width) a line"
                    }
                }
                var previous: Int64 = 0
                for checkpoint in tracked.checkpoints ?? [] {
                    guard checkpoint.end > previous, checkpoint.end <= tracked.offset else {
                        return
                            "\(name): checkpoint end \(checkpoint.end) is not between \(previous) and the offset \(tracked.offset)"
                    }
                    previous = checkpoint.end
                }
            }
        }
        return nil
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(self))
        bytes.append(0x0A)
        return bytes
    }
}
