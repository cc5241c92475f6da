/// A compiled `uaaudit run`: what to audit, and the incremental policy.
package struct RunSettings: Sendable {
    package var scan: ScanConfiguration
    package var logs: [String]
    /// The wall clock (seconds since the epoch); `--now` replaces it.
    package var now: Int64
    /// How long after an hour's end late lines are waited for before it closes.
    package var graceSeconds: Int64
    /// How many hours the report and the state keep.
    package var historyHours: Int64
    /// The alert channels, by their redacted keys (an alert is pending per channel).
    package var channelKeys: [String]
    /// The host name alerts carry (and their ids hash).
    package var host: String

    package init(
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
