import UAAuditAudit
import UAAuditInput

/// The JSON report: the dashboards' contract (schema `uaaudit.report/1`, see `docs/report.schema.json`).
///
/// Encoded with sorted keys (``ReportEncoding``), so output is stable and diffable.
public struct Report: Codable, Equatable, Sendable {
    public static let schemaID = "uaaudit.report/1"

    public var schema: String = Report.schemaID
    public var generatedAt: String
    public var sources: [SourceEntry]
    public var format: FormatEntry
    public var rules: RulesSummary
    public var threshold: Threshold
    public var minRequests: Int64
    public var totals: Totals
    public var hours: [HourEntry]
    public var malformedSamples: [SampleEntry]
    /// `uaaudit run` only: bytes of logs that could not be read (rotated files not found,
    /// truncation), with the byte range where known. Absent from `scan` reports.
    package var gaps: [Gap]? = nil
    /// `uaaudit run` only: each configured log, and whether it could be read this run.
    package var logs: [LogEntry]? = nil
    /// A hash of what the report counted and how (``ReportIdentity``): the same inputs and
    /// options give the same id. Absent from reports written before uaaudit gave one.
    public var reportID: String? = nil
    /// `uaaudit merge` only: the ids of the merged reports (a content hash for a report
    /// without an id), in the order given.
    public var mergedFrom: [String]? = nil
    /// `uaaudit run` only: a hash of the run's host and its logs' resolved paths, the same in
    /// every report of one state, so `merge` can refuse two of them (the later holds the
    /// earlier's hours). Absent from reports written before it was added.
    public var runOf: String? = nil
    /// `uaaudit merge` only: the `run_of` of each run report merged (directly or through
    /// another merge) with the hours it held, so that a merge of this merge still refuses
    /// another report of one of those states that holds one of those hours.
    public var mergedRunOf: [RunHours]? = nil
    /// The fingerprint of the salt client keys were hashed with (``ClientSalt``); absent
    /// without a client key, and in reports written before uaaudit named it.
    public var clientSalt: String? = nil
    /// The drift settings (``DriftSettingsEntry``); absent when drift is off, and in reports
    /// written before uaaudit recorded them.
    public var driftSettings: DriftSettingsEntry? = nil
    /// True when the report shows client keys in full (`--show-client-keys`): `merge` refuses
    /// to combine it with another report. Absent otherwise.
    public var clientKeysShown: Bool? = nil

    enum CodingKeys: String, CodingKey {
        case schema, sources, format, rules, threshold, totals, hours, gaps, logs
        case reportID = "report_id"
        case mergedFrom = "merged_from"
        case runOf = "run_of"
        case mergedRunOf = "merged_run_of"
        case clientSalt = "client_salt"
        case driftSettings = "drift_settings"
        case clientKeysShown = "client_keys_shown"
        case generatedAt = "generated_at"
        case minRequests = "min_requests"
        case malformedSamples = "malformed_samples"
    }

    /// The hours that one report of a `run` state held (its `run_of`).
    public struct RunHours: Codable, Equatable, Sendable {
        public var runOf: String
        /// The hours as the report names them (`hours[].hour`).
        public var hours: [String]

        enum CodingKeys: String, CodingKey {
            case hours
            case runOf = "run_of"
        }

        init(runOf: String, hours: [String]) {
            self.runOf = runOf
            self.hours = hours
        }
    }

    /// A configured log of `uaaudit run`: readable, or why not (it was then left as it was).
    package struct LogEntry: Codable, Equatable, Sendable {
        var path: String
        var readable: Bool
        var error: String?

        package init(path: String, readable: Bool, error: String? = nil) {
            self.path = path
            self.readable = readable
            self.error = error
        }
    }

    public struct SourceEntry: Codable, Equatable, Sendable {
        public var path: String
        public var lines: Int64
        /// Bytes read from the input (compressed bytes for gzip).
        public var bytes: Int64
        /// Why the input could not be read to its end; absent when it was.
        public var error: String?
        /// A hash of the file's first bytes (``ReportIdentity``); absent for stdin, for
        /// `run` reports, and in reports written before uaaudit kept it.
        public var identity: String? = nil
        /// The byte of the file reading began at (`bytes` were counted from there); absent
        /// where `identity` is.
        public var offset: Int64? = nil

        package init(
            path: String, lines: Int64, bytes: Int64, error: String? = nil, identity: String? = nil,
            offset: Int64? = nil
        ) {
            self.path = path
            self.lines = lines
            self.bytes = bytes
            self.error = error
            self.identity = identity
            self.offset = offset
        }
    }

    public struct FormatEntry: Codable, Equatable, Sendable {
        public var name: String?
        public var string: String
        public var escape: EscapeMode

        package init(name: String? = nil, string: String, escape: EscapeMode) {
            self.name = name
            self.string = string
            self.escape = escape
        }
    }

    public struct Totals: Codable, Equatable, Sendable {
        public var lines: Int64
        public var requests: Int64
        public var malformed: Int64
        public var outOfScope: Int64
        public var errors: Int64
        public var classes: [String: Int64]
        /// The alert class's share of all requests.
        public var share: Double
        /// The hours over the threshold, in order.
        public var alertHours: [String]
        /// The hours with a drift alert (a new UA family or an app class's share drop), in order.
        public var driftAlertHours: [String]? = nil
        /// `uaaudit run` only: lines stamped more than `history_hours` after the run's clock, counted
        /// in no hour (since the state began keeping them); absent when there were none.
        public var future: Int64? = nil
        /// `uaaudit run` only: breached hours not yet delivered to every channel configured
        /// (or waiting for a channel), in order; absent when none is.
        public var pendingAlertHours: [String]? = nil

        enum CodingKeys: String, CodingKey {
            case lines, requests, malformed, errors, classes, share, future
            case pendingAlertHours = "pending_alert_hours"
            case outOfScope = "out_of_scope"
            case alertHours = "alert_hours"
            case driftAlertHours = "drift_alert_hours"
        }
    }

    public struct HourEntry: Codable, Equatable, Sendable {
        public var hour: String
        /// Audited requests: every class plus `errors`.
        public var requests: Int64
        public var classes: [String: Int64]
        public var shares: [String: Double]
        /// The alert class's share of `requests`.
        public var share: Double
        /// Share strictly above the threshold, with at least `min_requests` requests
        /// (``AlertPolicy``); for `run`, only once the hour is closed, as decided then.
        public var alert: Bool
        public var errors: Int64
        public var outOfScope: Int64
        public var top: [TopEntry]
        /// True when some of the hour's alert-class UAs could not be tracked, so `top` may miss some.
        public var topApproximate: Bool
        /// `uaaudit run` only: whether the hour is closed (evaluated and, if breached, alerted once).
        public var closed: Bool? = nil
        /// `uaaudit run` only: requests that arrived after the hour closed (counted, not re-alerted).
        public var late: Int64? = nil
        /// Responses by status family (and 401, 403) per class; absent when the format has no `$status`.
        public var impact: [String: StatusCounts]? = nil
        /// The alert class's most requested paths; absent when the format has no request or URI.
        public var topPaths: [PathEntry]? = nil
        public var topPathsApproximate: Bool? = nil
        /// Clients seen with an app class and with the alert class; absent without a client key.
        public var clients: ClientsEntry? = nil
        /// UA families new against the baseline, and app class shares against it.
        public var drift: DriftEntry? = nil
        /// True when the hour's detail lists (top UAs, paths, families, client examples) were
        /// dropped to keep memory bounded: a scan keeps them for 48 hours and every hour over
        /// the threshold; its counts, shares and `alert` are exact. Absent otherwise.
        public var detailsDropped: Bool? = nil
        /// The largest UA families no rule matched (classed `other`), with warnings; absent when
        /// nothing was `other`.
        public var coverage: CoverageEntry? = nil
        /// `uaaudit run`, and alert messages: the hour's alert id (``HourAlertID``), the same in
        /// every message that carries the hour; absent for an hour that does not alert.
        public var id: String? = nil
        /// `uaaudit run` only: `pending`, `delivered` or `not_alerted`, for an hour that alerts.
        public var alertStatus: String? = nil
        /// `uaaudit run` only: true when the hour closed while a log that may hold its lines
        /// could not be read (for longer than uaaudit waits); absent otherwise.
        public var incomplete: Bool? = nil
        /// `uaaudit run` only: true when the hour was already `history_hours` old when a run first
        /// read it (a first run on an old log, a backfill): counted and shown, never alerted (its
        /// `alert` says whether it breached). Absent otherwise.
        public var backfill: Bool? = nil
        /// Why the hour's inconsistent families were sent (``CauseEntry``), most requests first;
        /// absent when the hour had none or its details were dropped.
        public var causes: [CauseEntry]? = nil
        /// The release sample the causes were judged from (``ReleaseSampleEntry``), for
        /// `merge`; absent without a client key.
        public var releases: ReleaseSampleEntry? = nil

        enum CodingKeys: String, CodingKey {
            case hour, requests, classes, shares, share, alert, errors, top, closed, late, impact, clients, drift
            case coverage, id, incomplete, backfill, causes, releases
            case alertStatus = "alert_status"
            case outOfScope = "out_of_scope"
            case topApproximate = "top_approximate"
            case topPaths = "top_paths"
            case topPathsApproximate = "top_paths_approximate"
            case detailsDropped = "details_dropped"
        }

        /// True when the hour is alerted for its share or for a UA drift.
        public var alerted: Bool { alert || drift?.alert == true }

        /// How the summary and the HTML page mark an alerting hour: `!` for the share, `d` for
        /// a drift alert, `!d` for both, nothing when it does not alert.
        public var alertMark: String { (alert ? "!" : "") + (drift?.alert == true ? "d" : "") }
    }

    public struct TopEntry: Codable, Equatable, Sendable {
        public var ua: String
        public var count: Int64

        package init(ua: String, count: Int64) {
            self.ua = ua
            self.count = count
        }
    }

    public struct SampleEntry: Codable, Equatable, Sendable {
        public var path: String
        public var line: Int64
        public var text: String
        public var reason: String

        package init(path: String, line: Int64, text: String, reason: String) {
            self.path = path
            self.line = line
            self.text = text
            self.reason = reason
        }
    }

    package init(
        schema: String = Report.schemaID, generatedAt: String, sources: [SourceEntry], format: FormatEntry,
        rules: RulesSummary, threshold: Threshold, minRequests: Int64, totals: Totals, hours: [HourEntry],
        malformedSamples: [SampleEntry], gaps: [Gap]? = nil, logs: [LogEntry]? = nil, reportID: String? = nil,
        mergedFrom: [String]? = nil, runOf: String? = nil, mergedRunOf: [RunHours]? = nil, clientSalt: String? = nil,
        driftSettings: DriftSettingsEntry? = nil, clientKeysShown: Bool? = nil
    ) {
        self.schema = schema
        self.generatedAt = generatedAt
        self.sources = sources
        self.format = format
        self.rules = rules
        self.threshold = threshold
        self.minRequests = minRequests
        self.totals = totals
        self.hours = hours
        self.malformedSamples = malformedSamples
        self.gaps = gaps
        self.logs = logs
        self.reportID = reportID
        self.mergedFrom = mergedFrom
        self.runOf = runOf
        self.mergedRunOf = mergedRunOf
        self.clientSalt = clientSalt
        self.driftSettings = driftSettings
        self.clientKeysShown = clientKeysShown
    }
}
