import UAAuditInput

/// The merged counts of a whole audit: every source, every chunk.
///
/// Tallies are absorbed in input order, so malformed samples keep file order and the result is
/// the same whatever the number of threads.
package struct AuditResult: Sendable {
    /// One hour of the scan in bytes, as the tallies give it: what ``HourCounts/init(_:configuration:)``
    /// names once the scan is done.
    package struct HourTally: Sendable, Equatable {
        /// One counter per class, then errors, then out of scope, then ``StatusCounts/slots``
        /// status counters per class.
        var counts: [Int64]
        /// Alert-class UAs (decoded) and their counts.
        var alertUAs: [[UInt8]: Int64] = [:]
        /// Alert-class requests whose UA did not fit the bounded table.
        var untrackedAlertUAs: Int64 = 0
        /// Requests per (UA family, class index); bounded per hour.
        var families: [FamilyKey: Int64] = [:]
        var untrackedFamilies: Int64 = 0
        /// Alert-class request paths (decoded) with their counts; bounded per hour.
        var paths: [[UInt8]: PathCount] = [:]
        var untrackedPaths: Int64 = 0
        var clients = ClientSet()
        /// A sample of the clients with their app versions and alert families (``ReleaseClients``).
        var releases = ReleaseClients()
        /// The hour's detail lists (UAs, families, paths, client examples) were dropped to keep
        /// memory bounded (``AuditResult/detailHours``); their requests count as untracked.
        var detailsDropped = false

        /// Requests so far: every class plus the UAs that could not be classified (errors), as
        /// ``HourCounts/requests`` counts them once named.
        func requests(classCount: Int) -> Int64 { counts[0...classCount].reduce(0, +) }

        /// Adds another part's counts of the same hour (bounds are applied by the caller).
        package mutating func add(_ other: HourTally) {
            for i in counts.indices { counts[i] += other.counts[i] }
            for (ua, n) in other.alertUAs { alertUAs[ua, default: 0] += n }
            untrackedAlertUAs += other.untrackedAlertUAs
            for (family, n) in other.families { families[family, default: 0] += n }
            untrackedFamilies += other.untrackedFamilies
            for (path, c) in other.paths {
                paths[path, default: PathCount()].count += c.count
                paths[path, default: PathCount()].rejected += c.rejected
            }
            untrackedPaths += other.untrackedPaths
            clients.merge(other.clients)
            releases.merge(other.releases)
        }

        package init(
            counts: [Int64], alertUAs: [[UInt8]: Int64] = [:], untrackedAlertUAs: Int64 = 0,
            families: [FamilyKey: Int64] = [:], untrackedFamilies: Int64 = 0, paths: [[UInt8]: PathCount] = [:],
            untrackedPaths: Int64 = 0
        ) {
            self.counts = counts
            self.alertUAs = alertUAs
            self.untrackedAlertUAs = untrackedAlertUAs
            self.families = families
            self.untrackedFamilies = untrackedFamilies
            self.paths = paths
            self.untrackedPaths = untrackedPaths
        }
    }

    package struct FamilyKey: Hashable, Sendable {
        var family: [UInt8]
        var cls: Int
    }

    package struct Sample: Sendable, Equatable {
        package var path: String
        package var line: Int64
        package var text: [UInt8]
        package var reason: MalformedReason
    }

    package struct Source: Sendable, Equatable {
        package var path: String
        package var lines: Int64 = 0
        package var bytes: Int64 = 0
        package var error: String?
        /// Lines of this input that did not match the format (or were too long).
        package var malformed: Int64 = 0
        /// A SHA-256 of every byte read, for an input that is not a regular file (stdin, a
        /// pipe): what tells two such inputs apart in the report's id.
        package var contentHash: String? = nil
        /// Read up to damage that makes what came before it unproven (``InputError/unverified``).
        package var unverified = false
        /// Its own first malformed lines (cut at ``Tally/sampleTextBytes``), at most
        /// ``probeLimit``: what the format-mismatch hint probes, whatever other inputs came first
        /// (the report's samples are few and shared by all inputs).
        package var probe: [[UInt8]] = []
        static let probeLimit = 10
        /// The line number (from 1, as read) of its first malformed line; nil if none.
        package var firstMalformed: Int64?
        /// True when lines the format parses confirm it for this input's log: `run` sets it when
        /// another file of the same log read in the run is mostly lines the format parses, or an
        /// earlier run committed lines of this one, unless its own lines parse as another format.
        package var formatConfirmed = false

        /// Adds what a part of this input showed of its malformed lines; call it after the part's
        /// lines were added to ``lines``.
        package mutating func keepProbe(from tally: Tally) {
            if firstMalformed == nil, let first = tally.firstMalformed { firstMalformed = lines - tally.lines + first }
            for sample in tally.samples where sample.reason == .format && probe.count < Source.probeLimit {
                probe.append(sample.text)
            }
        }

        package init(path: String, lines: Int64 = 0, bytes: Int64 = 0, error: String? = nil, malformed: Int64 = 0) {
            self.path = path
            self.lines = lines
            self.bytes = bytes
            self.error = error
            self.malformed = malformed
        }

        /// True when more than half of the lines, and at least ``mismatchMinimumLines``, are
        /// malformed: the input is not written in the format (CONTRACTS' exit 8), or, when it is
        /// ``unverified``, perhaps damage that decoded to lines of no format.
        package var mostlyMalformed: Bool { lines >= Source.mismatchMinimumLines && malformed * 2 > lines }

        /// True when the input's damage, not its format, explains its mostly malformed lines: it
        /// was read up to damage (``unverified``), and the format is confirmed, by its own first
        /// ``confirmingLines`` lines (damage garbles what comes after it, a wrong format every
        /// line from the first) or by the log's other files (``formatConfirmed``). Otherwise it
        /// is a format mismatch, as any input would be.
        package var damageExplainsMalformed: Bool {
            unverified && mostlyMalformed && (formatConfirmed || (firstMalformed ?? 0) > Source.confirmingLines)
        }

        /// True when the input does not match its log format (exit 8): mostly malformed, and no
        /// damage explains it. `run` then commits nothing; the CLI's hint names a format that fits.
        package var mismatchesFormat: Bool { mostlyMalformed && !damageExplainsMalformed }

        package static let confirmingLines: Int64 = 10

        package static let mismatchMinimumLines: Int64 = 100
    }

    let classCount: Int
    package var hours: [HourKey: HourTally] = [:]
    package var malformed: Int64 = 0
    /// Lines stamped after ``ScanConfiguration/futureAfter`` (`run` only), in no hour.
    package var future: Int64 = 0
    /// Those lines per hour: per class, then errors, then out of scope (``Tally/futureHours``).
    package var futureHours: [HourKey: [Int64]] = [:]
    package var samples: [Sample] = []
    package var sources: [Source] = []
    /// The newest request time counted (seconds since the epoch), nil when none.
    package var newest: Int64?
    /// When the last chunk (or stream) of the scan was read, in ``DispatchTime`` uptime
    /// nanoseconds: what comes after it (the last merge, the report) is the serial tail.
    package var lastReadAt: UInt64 = 0
    package let sampleLimit: Int
    /// How many hours (the newest) keep their detail lists, besides every hour the alert policy keeps.
    var detailHours = AuditResult.defaultDetailHours
    /// Hours this says are alerting keep their detail lists whatever their number.
    var keepsDetails: @Sendable (HourTally) -> Bool = { _ in false }

    static let defaultDetailHours = 48

    package init(classCount: Int, sampleLimit: Int) {
        self.classCount = classCount
        self.sampleLimit = sampleLimit
    }

    var lines: Int64 { sources.reduce(0) { $0 + $1.lines } }

    /// Adds a tally of `path`, whose first line is line `firstLine` of that file.
    package mutating func absorb(_ tally: Tally, path: String, firstLine: Int64, escape: EscapeMode) {
        let width = tally.width
        for (b, key) in tally.hours.enumerated() {
            var hour = hours[key] ?? HourTally(counts: [Int64](repeating: 0, count: width))
            for slot in 0..<width { hour.counts[slot] += tally.value(bucket: b, slot: slot) }
            hour.untrackedAlertUAs += tally.untracked[b]
            hour.untrackedFamilies += tally.untrackedFamilies[b]
            hour.untrackedPaths += tally.untrackedPaths[b]
            hours[key] = hour
        }
        let table = tally.alertUAs
        for e in 0..<table.count {
            let key = tally.hours[Int(table.tag(e))]
            let decoded = AuditResult.keptText(Unescape.decode(Array(table.key(e)), mode: escape))
            hours[key]?.alertUAs[decoded, default: 0] += table.values[e]
        }
        absorbInsight(tally, escape: escape)
        for key in tally.hours {
            trimAlertUAs(of: key)
            trimInsight(of: key)
        }
        keepClientsWithinBudget()
        keepDetailsWithinBound(touched: tally.hours)
        malformed += tally.malformed
        future += tally.future
        AuditResult.addFuture(tally.futureHours, to: &futureHours)
        if tally.newest != Int64.min { newest = max(newest ?? tally.newest, tally.newest) }
        for sample in tally.samples where samples.count < sampleLimit {
            samples.append(
                Sample(path: path, line: firstLine + sample.line - 1, text: sample.text, reason: sample.reason))
        }
    }

    /// Adds per-hour counts of lines stamped ahead (``futureHours``) to `whole`.
    package static func addFuture(_ part: [HourKey: [Int64]], to whole: inout [HourKey: [Int64]]) {
        for (key, counts) in part {
            guard var sum = whole[key] else {
                whole[key] = counts
                continue
            }
            for i in sum.indices where i < counts.count { sum[i] += counts[i] }
            whole[key] = sum
        }
    }

    /// The most distinct alert-class UAs an hour keeps across inputs; beyond that the least
    /// frequent are dropped (counted as untracked, so `top_approximate` says so).
    static let maxAlertUAsPerHour = 4_000

    private mutating func trimAlertUAs(of key: HourKey) {
        guard var hour = hours[key], hour.alertUAs.count > AuditResult.maxAlertUAsPerHour else { return }
        hour.untrackedAlertUAs += AuditResult.keepTop(&hour.alertUAs, AuditResult.maxAlertUAsPerHour / 2) { $0 }
        hours[key] = hour
    }

    /// The most bytes of an alert-class UA an hour keeps (decoded). The table is bounded in
    /// entries (``maxAlertUAsPerHour``); this bounds it in bytes too: 20,000 distinct 30 KB UAs
    /// in one hour took 50 MB (issue 31), and now take at most 4,000 × about 1 KiB.
    static let maxAlertUABytes = 1024

    /// `ua` as an hour keeps it: whole up to ``maxAlertUABytes``, else its first bytes up to
    /// that (cut before a UTF-8 character that would not fit whole) and ` …[N bytes]`, N
    /// its whole length. Two long UAs that share those bytes and their length count as one.
    static func keptText(_ ua: [UInt8]) -> [UInt8] {
        guard ua.count > maxAlertUABytes else { return ua }
        var end = maxAlertUABytes
        // Back to the start of a character: at most three continuation bytes (10xxxxxx).
        var back = 0
        while back < 3, end > 0, ua[end] & 0xC0 == 0x80 {
            end -= 1
            back += 1
        }
        return Array(ua[..<end]) + Array(" …[\(ua.count) bytes]".utf8)
    }

    /// Keeps the `limit` entries with the highest counts, ties to the lower bytes (CONTRACTS:
    /// every trimmed list), and returns the count of those it dropped.
    static func keepTop<Value>(_ entries: inout [[UInt8]: Value], _ limit: Int, count: (Value) -> Int64) -> Int64 {
        guard entries.count > limit else { return 0 }
        let sorted = entries.sorted {
            let (a, b) = (count($0.value), count($1.value))
            return a != b ? a > b : $0.key.lexicographicallyPrecedes($1.key)
        }
        entries = Dictionary(uniqueKeysWithValues: sorted.prefix(limit).map { ($0.key, $0.value) })
        return sorted.dropFirst(limit).reduce(0) { $0 + count($1.value) }
    }
}
