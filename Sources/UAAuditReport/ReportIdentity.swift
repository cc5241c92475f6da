import FoundationEssentials
import Glibc
import UAAuditAudit
import UAAuditInput

/// A report's `report_id` and its sources' identities, and the overlap test of `merge`.
///
/// - A source's `identity` is a SHA-256 (first 32 hex digits) of the first
///   ``identityBytes`` bytes of the file as stored (compressed bytes for gzip), so the same
///   file under another name, on another mount or copied, is the same source, and a log and
///   the rotated file it became are too. With `offset` and `bytes` it gives the byte range
///   the report counted: `[offset, offset + bytes)`.
/// - A scan report's `report_id` hashes what tells its sources apart from every other
///   source (this machine's name and each file's resolved path; for stdin, a hash of all it
///   read), their identities and byte ranges, and the options that shape its counts (format,
///   rules, threshold, minimum, top, line limit, split-client and drift settings); never
///   `generated_at` or `--threads`. So two empty files, or two hosts' quiet logs, are two
///   reports, not one.
/// - A merged report's `report_id` hashes the ids it was merged from and its options.
/// - A report without an id (written before uaaudit gave one) is identified by a hash of
///   its content, `generated_at` left out: ``contentID(_:)``.
package enum ReportIdentity {
    /// How many first bytes of a file identify it.
    static let identityBytes = 4096

    /// The identity of the file at `path`; nil for stdin (`-`) and files that cannot be read.
    static func sourceIdentity(path: String) -> String? {
        // O_NONBLOCK: a FIFO (read once by the scan, known by a hash of its bytes) must not be
        // opened again waiting for a writer; it has no identity.
        guard path != "-", let fd = try? Syscalls.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK) else {
            return nil
        }
        defer { Syscalls.close(fd) }
        guard let status = try? Syscalls.fstatus(fd), status.isRegular else { return nil }
        var buffer = [UInt8](repeating: 0, count: identityBytes)
        var filled = 0
        while filled < buffer.count {
            guard let n = try? Syscalls.read(fd, into: &buffer, from: filled), n > 0 else { break }
            filled += n
        }
        return digest(Array(buffer.prefix(filled)))
    }

    /// Gives a scan's report its sources' identities (read from the files now: their first
    /// bytes do not change as a log grows) and its `report_id`.
    /// `read` are the scanner's sources, in the report's order (their content hashes).
    static func stampScan(
        _ report: inout Report, configuration: ScanConfiguration, read: [AuditResult.Source],
        host: String = Syscalls.hostName()
    ) {
        for i in report.sources.indices {
            report.sources[i].identity = sourceIdentity(path: report.sources[i].path)
            report.sources[i].offset = 0
        }
        let contents = report.sources.indices.map { i in i < read.count ? read[i].contentHash : nil }
        report.reportID = scanID(report, configuration: configuration, contents: contents, host: host)
    }

    /// What a scan report's id is a hash of.
    struct ScanBasis: Encodable {
        package struct Source: Encodable {
            var identity: String?
            var offset: Int64
            var bytes: Int64
            var lines: Int64
            /// The resolved path of a file; nil for stdin.
            var path: String?
            /// A hash of all that was read, for stdin or a pipe.
            var content: String?
        }
        /// The machine the files were read on.
        var host: String
        var sources: [Source]
        var format: Report.FormatEntry
        var rules: RulesSummary
        var threshold: String
        var minRequests: Int64
        var top: Int
        var maxLineBytes: Int
        var sampleLimit: Int
        var clientKey: String?
        var appClasses: [String]
        var showClientKeys: Bool
        var maxClients: Int
        var baselineHours: Int
        var newFamilyShare: Double?
        var shareDrop: Double?
        /// The client salt's fingerprint; absent for the default salt (so ids stay as they were).
        var clientSalt: String?
        /// Present when a source has no identity: the report's content stands for it.
        var content: String?
    }

    static func scanID(
        _ report: Report, configuration: ScanConfiguration, contents: [String?], host: String
    ) -> String {
        let insight = configuration.insight
        let sources = report.sources.enumerated().map { i, source in
            ScanBasis.Source(
                identity: source.identity, offset: source.offset ?? 0, bytes: source.bytes, lines: source.lines,
                path: source.path == "-" ? nil : PathIdentity.resolved(source.path),
                content: i < contents.count ? contents[i] : nil)
        }
        let basis = ScanBasis(
            host: host, sources: sources, format: report.format, rules: report.rules,
            threshold: "\(configuration.threshold.numerator)/\(configuration.threshold.denominator)",
            minRequests: configuration.minRequests, top: configuration.top, maxLineBytes: configuration.maxLineBytes,
            sampleLimit: configuration.sampleLimit, clientKey: insight.clientKey, appClasses: insight.appClasses,
            showClientKeys: insight.showClientKeys, maxClients: insight.maxClients,
            baselineHours: insight.baselineHours, newFamilyShare: insight.newFamilyShare?.value,
            shareDrop: insight.shareDrop?.value,
            clientSalt: insight.salt.isStandard ? nil : insight.salt.fingerprint,
            content: sources.contains { $0.path == nil && $0.content == nil } ? contentID(report) : nil)
        return "scan-" + digest(encoded(basis))
    }

    /// What a run report's id is a hash of: its content (without what this run happened to
    /// read), its host and its configured logs' resolved paths.
    struct RunBasis: Encodable {
        var content: String
        var host: String
        var logs: [String]
    }

    package static func runID(content: Report, host: String, logs: [String]) -> String {
        "run-"
            + digest(encoded(RunBasis(content: contentID(content), host: host, logs: logs.map(PathIdentity.resolved))))
    }

    /// What every report of one `run` state shares: its host and its logs' resolved paths.
    package static func runOf(host: String, logs: [String]) -> String {
        "logs-" + digest(encoded(RunBasis(content: "", host: host, logs: logs.map(PathIdentity.resolved))))
    }

    /// What a merged report's id is a hash of.
    struct MergeBasis: Encodable {
        var mergedFrom: [String]
        var threshold: Double
        var minRequests: Int64
        var top: Int
    }

    static func mergedID(mergedFrom: [String], threshold: Double, minRequests: Int64, top: Int) -> String {
        "merge-"
            + digest(
                encoded(MergeBasis(mergedFrom: mergedFrom, threshold: threshold, minRequests: minRequests, top: top)))
    }

    /// A hash of the report's content with `generated_at` left out (so two runs over the
    /// same input agree): the identity of a report that carries no `report_id`.
    static func contentID(_ report: Report) -> String {
        var copy = report
        copy.generatedAt = ""
        copy.reportID = nil
        // Hashed piece by piece (an hour at a time), so a long report is never held whole.
        var chained: [UInt8] = []
        try? ReportEncoding.write(copy) { piece in chained = SHA256.hash(chained + SHA256.hash(piece)) }
        return "content-" + SHA256.hex(chained).prefix(32)
    }

    /// The id `merge` knows a report by: its `report_id`, else a hash of its content.
    static func id(of report: Report) -> String { report.reportID ?? contentID(report) }

    /// Why some of `inputs` must not be merged: the same report twice, a report already merged
    /// into another, two reports of one `run` state, or a source byte range that two reports
    /// both counted. Nil when they are disjoint.
    package static func overlap(_ inputs: [ReportMerge.Input]) -> MergeError? {
        let ids = inputs.map { id(of: $0.report) }
        for (i, a) in inputs.enumerated() {
            for (j, b) in inputs.enumerated() where j > i {
                if ids[i] == ids[j] {
                    return .overlapping(first: a.path, other: b.path, why: "they are the same report (\(ids[i]))")
                }
                for (x, y, inner) in [(a, b, ids[j]), (b, a, ids[i])] where x.report.mergedFrom?.contains(inner) == true
                {
                    return .overlapping(
                        first: a.path, other: b.path, why: "\(x.path) already holds \(y.path) (\(inner))")
                }
                if let (run, hour) = sharedRunHour(a.report, b.report) {
                    return .overlapping(
                        first: a.path, other: b.path,
                        why: "they are reports of one run's state (the same host and logs, \(run)) that both hold "
                            + "the hour \(hour): the later holds the earlier's hours; give only the latest")
                }
                if let shared = sharedRange(a.report, b.report) {
                    return .overlapping(first: a.path, other: b.path, why: shared)
                }
            }
        }
        return nil
    }

    /// The run reports a report holds: itself when it is one, and those a merge was made of.
    static func runHours(_ report: Report) -> [Report.RunHours] {
        (report.runOf.map { [Report.RunHours(runOf: $0, hours: report.hours.map(\.hour))] } ?? [])
            + (report.mergedRunOf ?? [])
    }

    /// The first hour that two reports of one `run` state (one `run_of`, directly or in a
    /// merge) both hold. Reports of one state whose hours do not meet (daily archives) merge.
    static func sharedRunHour(_ a: Report, _ b: Report) -> (runOf: String, hour: String)? {
        let theirs = runHours(b)
        for mine in runHours(a) {
            for other in theirs where other.runOf == mine.runOf {
                let held = Set(other.hours)
                if let hour = mine.hours.first(where: held.contains) { return (mine.runOf, hour) }
            }
        }
        return nil
    }

    /// The first byte range of one source that both reports counted, described.
    static func sharedRange(_ a: Report, _ b: Report) -> String? {
        for s in a.sources where s.bytes > 0 {
            guard let identity = s.identity else { continue }
            let start = s.offset ?? 0
            for t in b.sources where t.identity == identity && t.bytes > 0 {
                let from = max(start, t.offset ?? 0)
                let to = min(start + s.bytes, (t.offset ?? 0) + t.bytes)
                if from < to {
                    let names = s.path == t.path ? s.path : "\(s.path) (\(t.path))"
                    return "both counted bytes \(from)-\(to) of \(names)"
                }
            }
        }
        return nil
    }

    static func encoded<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { [UInt8]($0) } ?? []
    }

    /// What `run`'s state records of the rules its hours were counted with: their classes,
    /// patterns, alert class and scope (``RulesSummary``), hashed.
    package static func rulesDigest(_ rules: RulesSummary) -> String { "rules-" + digest(encoded(rules)) }

    static func digest(_ bytes: [UInt8]) -> String { String(SHA256.hex(SHA256.hash(bytes)).prefix(32)) }
}
