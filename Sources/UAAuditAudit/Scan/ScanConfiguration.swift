import UAAuditInput

/// Everything a scan needs, compiled: the format, the rules, the alert policy and the limits.
package struct ScanConfiguration: Sendable {
    package var format: LogFormat
    package var rules: RuleSet
    package var threshold: Threshold
    package var minRequests: Int64
    /// How many of the alert class's UAs each hour lists.
    package var top: Int
    var threads: Int
    package var maxLineBytes: Int
    package var sampleLimit: Int
    var blockSize: Int
    /// Regular files are cut at fixed offsets, every this many bytes (at the next line start),
    /// whatever the thread count; the chunks are read side by side and merged in file order.
    var chunkBytes: Int64
    static let defaultChunkBytes: Int64 = 16 << 20
    package var insight: InsightSettings
    /// `run` only: lines stamped after this instant (seconds since the epoch) are counted as
    /// future and in no hour (``Tally/future``); `Int64.max` (the default) counts every line.
    package var futureAfter: Int64 = .max

    package init(
        format: LogFormat, rules: RuleSet, threshold: Threshold = .standard,
        minRequests: Int64 = Int64(Settings.minRequests.defaultInt), top: Int = Settings.top.defaultInt,
        threads: Int = 1, maxLineBytes: Int = Settings.maxLineBytes.defaultInt,
        sampleLimit: Int = 10, blockSize: Int = LineReader.defaultBlockSize,
        chunkBytes: Int64 = ScanConfiguration.defaultChunkBytes,
        insight: InsightSettings = InsightSettings()
    ) {
        self.insight = insight
        self.format = format
        self.rules = rules
        self.threshold = threshold
        self.minRequests = minRequests
        self.top = top
        self.threads = max(1, threads)
        self.maxLineBytes = maxLineBytes
        self.sampleLimit = sampleLimit
        self.blockSize = blockSize
        self.chunkBytes = max(chunkBytes, 1)
    }

    /// The field index of the client key in the format, if the format logs it.
    package var clientField: Int? {
        insight.clientKey.flatMap { format.variableNames.firstIndex(of: $0) }
    }

    /// Per class index: the ``ClientSample`` kind of its requests (app, alert, or 0: not noted).
    var clientBits: [UInt8] {
        rules.classNames.indices.map { i in
            i == rules.alertIndex
                ? ClientSample.alert : insight.appClasses.contains(rules.classNames[i]) ? ClientSample.app : 0
        }
    }
}
