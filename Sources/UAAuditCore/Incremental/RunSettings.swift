/// A compiled `uaaudit run`: what to audit, and the incremental policy.
public struct RunSettings: Sendable {
    public var scan: ScanConfiguration
    public var logs: [String]
    /// The wall clock (seconds since the epoch); `--now` replaces it.
    public var now: Int64
    /// How long after an hour's end late lines are waited for before it closes.
    public var graceSeconds: Int64
    /// How many hours the report and the state keep.
    public var historyHours: Int64
    /// The alert channels, by their redacted keys (an alert is pending per channel).
    public var channelKeys: [String]
    /// The host name alerts carry (and their ids hash).
    public var host: String

    public init(
        scan: ScanConfiguration, logs: [String], now: Int64, graceSeconds: Int64 = 300, historyHours: Int64 = 48,
        channelKeys: [String] = [], host: String = "localhost"
    ) {
        self.scan = scan
        self.logs = logs
        self.now = now
        self.graceSeconds = graceSeconds
        self.historyHours = historyHours
        self.channelKeys = channelKeys
        self.host = host
    }
}
