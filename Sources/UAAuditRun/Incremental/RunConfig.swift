import FoundationEssentials
import UAAuditInput

/// The JSON config file of `uaaudit run` (version 1); every key is also a flag.
///
/// See `cron/uaaudit.json` for a documented sample.
package struct RunConfig: Codable, Equatable, Sendable {
    package struct FormatChoice: Codable, Equatable, Sendable {
        /// A built-in format (`ua_log`, `combined`), or with `nginx_conf` a log_format name there.
        var name: String?
        /// A log_format string, with its `escape`.
        var string: String?
        var escape: EscapeMode?
        package var nginxConf: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, string, escape
            case nginxConf = "nginx_conf"
        }

        package init(name: String? = nil, string: String? = nil, escape: EscapeMode? = nil, nginxConf: String? = nil) {
            self.name = name
            self.string = string
            self.escape = escape
            self.nginxConf = nginxConf
        }

        /// The format this choice names: a format string, a log_format of an nginx config, or
        /// a built-in (`ua_log` when nothing is named). Shared by `scan`'s flags and run's config.
        /// - Throws: ``FormatError``.
        package func compile() throws -> LogFormat {
            if let string { return try LogFormat(string, escape: escape ?? .default, name: name) }
            if let nginxConf {
                guard let name else { throw FormatError.nginxConfNeedsName(path: nginxConf) }
                return try NginxConfig.logFormat(named: name, path: nginxConf)
            }
            return try BuiltinFormats.named(name ?? "ua_log")
        }
    }

    var version: Int?
    package var logs: [String]?
    package var format: FormatChoice?
    package var rules: String?
    /// `"0.001"`, `"0.1%"` or a number.
    package var threshold: ThresholdText?
    package var minRequests: Int64?
    package var top: Int?
    package var state: String?
    package var report: String?
    /// The report as an HTML page (written with the report).
    package var html: String?
    /// Prometheus metrics for node_exporter's textfile collector (written after the state commit).
    package var prom: String?
    package var historyHours: Int64?
    package var graceSeconds: Int64?
    package var lock: String?
    package var lockWaitSeconds: Double?
    package var host: String?
    /// Where rotated files are looked for besides the log's own directory (logrotate's
    /// `olddir`; relative to the log's directory).
    package var rotatedDir: String?
    /// Alert channels (see docs/alerts.md: the channel config shape).
    package var alerts: [AlertChannel]?
    /// Split identity and UA drift (the keys of ``InsightChoice``).
    package var insight: InsightChoice?

    /// The `insight` object: every key is also a flag of `scan` and `run`.
    package struct InsightChoice: Codable, Equatable, Sendable {
        /// A format variable (`remote_addr`, `http_x_device_id`), or `none`.
        package var clientKey: String?
        package var appClasses: [String]?
        package var showClientKeys: Bool?
        /// A file holding the salt client keys are hashed with (``ClientSalt``).
        package var clientSaltFile: String?
        package var baselineHours: Int?
        /// Shares written like the threshold (`"5%"`, `0.05`).
        package var alertNewFamily: ThresholdText?
        package var alertShareDrop: ThresholdText?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case clientKey = "client_key"
            case appClasses = "app_classes"
            case showClientKeys = "show_client_keys"
            case clientSaltFile = "client_salt_file"
            case baselineHours = "baseline_hours"
            case alertNewFamily = "alert_new_family"
            case alertShareDrop = "alert_share_drop"
        }

        init() {}
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, logs, format, rules, threshold, top, state, report, lock, host, alerts, html, prom, insight
        case minRequests = "min_requests"
        case historyHours = "history_hours"
        case graceSeconds = "grace_seconds"
        case lockWaitSeconds = "lock_wait_seconds"
        case rotatedDir = "rotated_dir"
    }

    package init() {}

    /// A share as the config writes it, a string (`"0.1%"`) or a number (its digits exactly:
    /// `0.00001`, never a `Double`'s `1e-05`), read as `--threshold` reads its text.
    package struct ThresholdText: Codable, Equatable, Sendable {
        package var text: String
        init(_ text: String) { self.text = text }
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let s = try? container.decode(String.self) {
                text = s
            } else if let number = try? container.decode(Decimal.self) {
                text = number.description
            } else {
                // Another type: the decoder's own error for a number ("… found a bool instead");
                // a number past Decimal's range as a Double, which ConfigValues refused already.
                text = "\(try container.decode(Double.self))"
            }
        }
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    /// Reads the config at `path`; errors name the file and what is wrong.
    package static func load(path: String) throws(ConfigError) -> RunConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.readAll(path: path, limit: 4 << 20)
        } catch {
            throw ConfigError(path: path, reason: "cannot read: \(error.reason)")
        }
        return try decode(bytes, path: path)
    }

    /// Decodes config JSON (`path` names it in messages).
    static func decode(_ bytes: [UInt8], path: String) throws(ConfigError) -> RunConfig {
        // One parse: for what the decoder does not see, for where JSON that is none breaks, and
        // to decode from.
        var duplicate: String?
        let json: JSONValue
        do throws(JSONValue.SyntaxError) {
            json = try JSONValue.parse(bytes, firstDuplicate: &duplicate)
        } catch {
            throw ConfigError(path: path, reason: "not JSON: " + JSONErrors.describe(error, in: bytes))
        }
        // JSONDecoder keeps one of two equal keys in silence: the other setting would be lost.
        if let duplicate { throw ConfigError(path: path, reason: DuplicateKeys.message(duplicate)) }
        // A mistyped key would otherwise be dropped and its default used.
        if let unknown = ConfigKeys.runConfig.firstUnknown(in: json) {
            throw ConfigError(path: path, reason: unknown.description)
        }
        // A value the flag would refuse is refused here, with its rule.
        if let problem = ConfigValues.firstProblem(in: json) { throw ConfigError(path: path, reason: problem) }
        let config: RunConfig
        do {
            config = try JSONValueDecoder.decode(RunConfig.self, from: json)
        } catch {
            throw ConfigError(path: path, reason: JSONErrors.describe(error))
        }
        if let v = config.version, v != 1 {
            throw ConfigError(path: path, reason: "version \(v) is not one this uaaudit reads (1)")
        }
        return config
    }
}

/// Why a config file could not be used.
package struct ConfigError: Error, Equatable, CustomStringConvertible {
    let path: String
    let reason: String
    package var description: String { "config \(path): \(reason)" }
}
