import Foundation

/// The JSON config file of `uaaudit run` (version 1); every key is also a flag.
///
/// See `cron/uaaudit.json` for a documented sample.
public struct RunConfig: Codable, Equatable, Sendable {
    public struct FormatChoice: Codable, Equatable, Sendable {
        /// A built-in format (`ua_log`, `combined`), or with `nginx_conf` a log_format name there.
        public var name: String?
        /// A log_format string, with its `escape`.
        public var string: String?
        public var escape: EscapeMode?
        public var nginxConf: String?

        enum CodingKeys: String, CodingKey {
            case name, string, escape
            case nginxConf = "nginx_conf"
        }

        public init(name: String? = nil, string: String? = nil, escape: EscapeMode? = nil, nginxConf: String? = nil) {
            self.name = name
            self.string = string
            self.escape = escape
            self.nginxConf = nginxConf
        }

        /// The format this choice names: a format string, a log_format of an nginx config, or
        /// a built-in (`ua_log` when nothing is named). Shared by `scan`'s flags and run's config.
        /// - Throws: ``FormatError``.
        public func compile() throws -> LogFormat {
            if let string { return try LogFormat(string, escape: escape ?? .default, name: name) }
            if let nginxConf {
                guard let name else { throw FormatError.nginxConfNeedsName(path: nginxConf) }
                return try NginxConfig.logFormat(named: name, path: nginxConf)
            }
            return try BuiltinFormats.named(name ?? "ua_log")
        }
    }

    public var version: Int?
    public var logs: [String]?
    public var format: FormatChoice?
    public var rules: String?
    /// `"0.001"`, `"0.1%"` or a number.
    public var threshold: ThresholdText?
    public var minRequests: Int64?
    public var top: Int?
    public var state: String?
    public var report: String?
    /// The report as an HTML page (written with the report).
    public var html: String?
    /// Prometheus metrics for node_exporter's textfile collector (written after the state commit).
    public var prom: String?
    public var historyHours: Int64?
    public var graceSeconds: Int64?
    public var lock: String?
    public var lockWaitSeconds: Double?
    public var host: String?
    /// Alert channels (see README: the channel config shape).
    public var alerts: [AlertChannel]?
    /// Split identity and UA drift (the keys of ``InsightChoice``).
    public var insight: InsightChoice?

    /// The `insight` object: every key is also a flag of `scan` and `run`.
    public struct InsightChoice: Codable, Equatable, Sendable {
        /// A format variable (`remote_addr`, `http_x_device_id`), or `none`.
        public var clientKey: String?
        public var appClasses: [String]?
        public var showClientKeys: Bool?
        public var baselineHours: Int?
        /// Shares written like the threshold (`"5%"`, `0.05`).
        public var alertNewFamily: ThresholdText?
        public var alertShareDrop: ThresholdText?

        enum CodingKeys: String, CodingKey {
            case clientKey = "client_key"
            case appClasses = "app_classes"
            case showClientKeys = "show_client_keys"
            case baselineHours = "baseline_hours"
            case alertNewFamily = "alert_new_family"
            case alertShareDrop = "alert_share_drop"
        }

        public init() {}
    }

    enum CodingKeys: String, CodingKey {
        case version, logs, format, rules, threshold, top, state, report, lock, host, alerts, html, prom, insight
        case minRequests = "min_requests"
        case historyHours = "history_hours"
        case graceSeconds = "grace_seconds"
        case lockWaitSeconds = "lock_wait_seconds"
    }

    public init() {}

    /// A threshold written as a string or a number.
    public struct ThresholdText: Codable, Equatable, Sendable {
        public var text: String
        public init(_ text: String) { self.text = text }
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let s = try? container.decode(String.self) {
                text = s
            } else {
                text = String(try container.decode(Double.self))
            }
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    /// Reads the config at `path`; errors name the file and what is wrong.
    public static func load(path: String) throws(ConfigError) -> RunConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.readAll(path: path, limit: 4 << 20)
        } catch {
            throw ConfigError(path: path, reason: "cannot read: \(error.reason)")
        }
        return try decode(bytes, path: path)
    }

    /// Decodes config JSON (`path` names it in messages).
    public static func decode(_ bytes: [UInt8], path: String) throws(ConfigError) -> RunConfig {
        let config: RunConfig
        do {
            config = try JSONDecoder().decode(RunConfig.self, from: Data(bytes))
        } catch {
            throw ConfigError(path: path, reason: JSONErrors.describe(error, in: bytes))
        }
        if let v = config.version, v != 1 {
            throw ConfigError(path: path, reason: "version \(v) is not one this uaaudit reads (1)")
        }
        return config
    }
}

/// Why a config file could not be used.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "config \(path): \(reason)" }
}

/// Parses `--now` and other ISO-8601 instants: `2026-11-29T18:05:00Z` or `…+08:00`.
public enum Instant {
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count == 20 || b.count == 25,
            let hour = b.withUnsafeBytes({ TimeParser.parseISO8601($0.baseAddress!, count: b.count) }),
            let minute = Int(String(decoding: b[14..<16], as: UTF8.self)),
            let second = Int(String(decoding: b[17..<19], as: UTF8.self))
        else { return nil }
        return hour.startInstant + Int64(minute * 60 + second)
    }
}
