import UAAuditAudit
import UAAuditInput

/// Why an input does not match its log format (exit 8): a format that parses its malformed
/// lines (built in, or a `log_format` of the nginx config given), and, for one kept sample,
/// which field failed at which byte. The CLI turns it into the message.
package struct FormatMismatch: Sendable, Equatable {
    /// A format that parses more than half of the malformed lines, and how to name it.
    package struct Fit: Sendable, Equatable {
        /// The format's name, or its string when it has none.
        package var label: String
        /// The name to choose it by (`--format NAME`, the config's `"format"`).
        package var name: String
        /// The nginx.conf whose `log_format` it is; nil for a built-in format.
        package var nginxConf: String?
    }

    package var source: AuditResult.Source
    /// Nil when no known format parses the lines.
    package var fit: Fit?
    /// The names of the formats tried, in the order they were tried.
    package var tried: [String]
    /// The input's first kept sample that the format refuses, and where it failed (both or neither).
    package var sample: AuditResult.Sample?
    package var failure: FormatProbe.Failure?

    /// The inputs that do not match `format` (``AuditResult/Source/mostlyMalformed``); an
    /// input whose damage explains its malformed lines is not one (``AuditResult/Source/mismatchesFormat``).
    package static func mismatches(
        sources: [AuditResult.Source], samples: [AuditResult.Sample], format: LogFormat, nginxConf: String?
    ) -> [FormatMismatch] {
        let mismatched = sources.filter(\.mismatchesFormat)
        guard !mismatched.isEmpty else { return [] }
        let candidates = candidates(besides: format, nginxConf: nginxConf)
        return mismatched.map { diagnose($0, samples: samples, format: format, candidates: candidates) }
    }

    /// The inputs too short for exit 8 (fewer than ``AuditResult/Source/mismatchMinimumLines``
    /// lines) whose lines are mostly malformed, when a known format parses them: a 60-line
    /// `combined` log read as `ua_log` is worth telling too, and one no format parses is not.
    package static func shortInputs(
        sources: [AuditResult.Source], samples: [AuditResult.Sample], format: LogFormat, nginxConf: String?
    ) -> [FormatMismatch] {
        let short = sources.filter {
            $0.lines > 0 && $0.malformed * 2 > $0.lines && !$0.mostlyMalformed && $0.error == nil
        }
        guard !short.isEmpty else { return [] }
        let candidates = candidates(besides: format, nginxConf: nginxConf)
        return short.map { diagnose($0, samples: samples, format: format, candidates: candidates) }
            .filter { $0.fit != nil }
    }

    /// The formats to try instead of `format`: the nginx config's `log_format`s (last first),
    /// then the built-in ones (`format` itself too when it came from nginx.conf, where a
    /// format of the same name may differ from the built-in one).
    static func candidates(besides format: LogFormat, nginxConf: String?) -> [(LogFormat, Fit)] {
        var candidates: [(LogFormat, Fit)] = []
        for builtin in BuiltinFormats.names where builtin != format.name || nginxConf != nil {
            if let compiled = try? BuiltinFormats.named(builtin) {
                candidates.append((compiled, Fit(label: compiled.name ?? compiled.string, name: builtin)))
            }
        }
        if let nginxConf, let tree = try? NginxConfigTree.load(path: nginxConf), let formats = try? tree.logFormats() {
            for entry in formats where entry.name != format.name {
                guard let compiled = entry.format else { continue }
                candidates.insert(
                    (compiled, Fit(label: compiled.name ?? compiled.string, name: entry.name, nginxConf: nginxConf)),
                    at: 0)
            }
        }
        return candidates
    }

    static func diagnose(
        _ source: AuditResult.Source, samples allSamples: [AuditResult.Sample], format: LogFormat,
        candidates: [(LogFormat, Fit)]
    ) -> FormatMismatch {
        let samples = allSamples.filter { $0.path == source.path && $0.reason == .format }
        // Whole lines are probed: the kept samples are cut at 512 bytes (a long UA or referer
        // then fits no format), and may all be an earlier input's. A plain file's last lines
        // that the format refuses stand in; the samples serve stdin and gzip.
        var lines: [[UInt8]] = []
        if source.path != "-", !GzipFile.detect(source.path) {
            lines = ((try? LogTail.lastLines(path: source.path, count: 20)) ?? []).filter {
                FormatProbe.failure(of: $0, in: format) != nil
            }
        }
        // Its own malformed lines, whatever other inputs took the report's few samples.
        if lines.isEmpty { lines = source.probe.isEmpty ? samples.map(\.text) : source.probe }
        var mismatch = FormatMismatch(source: source, tried: candidates.compactMap(\.0.name))
        if let fit = FormatProbe.otherFit(lines, given: format, among: candidates.map(\.0)) {
            mismatch.fit = candidates.first(where: { $0.0 == fit })?.1
        }
        if let sample = samples.first, let failure = FormatProbe.failure(of: sample.text, in: format) {
            mismatch.sample = sample
            mismatch.failure = failure
        }
        return mismatch
    }
}
