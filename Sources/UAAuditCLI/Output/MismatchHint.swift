import FoundationEssentials
import UAAuditInput
import UAAuditAudit
import UAAuditRun

/// The stderr message of exit 8: an input does not match its log format. It names a format
/// that parses the malformed lines (built-in, or from the nginx config when one was given) and
/// says, for one sample, which field failed at which byte.
enum MismatchHint {
    /// One message per mismatched input (``AuditResult/Source/mismatchesFormat``); empty when
    /// none mismatches. An input whose damage explains its malformed lines is not one.
    static func messages(
        sources: [AuditResult.Source], samples: [AuditResult.Sample], format: LogFormat, nginxConf: String?,
        inConfig: Bool
    ) -> [String] {
        sources.filter(\.mismatchesFormat).map { source in
            message(source, samples: samples, format: format, nginxConf: nginxConf, inConfig: inConfig).text
        }
    }

    /// The same hint for an input too short for exit 8 (fewer than
    /// ``AuditResult/Source/mismatchMinimumLines`` lines) whose lines are mostly malformed, when
    /// a known format parses them: a 60-line `combined` log read as `ua_log` is told so too.
    static func shortInputHints(
        sources: [AuditResult.Source], samples: [AuditResult.Sample], format: LogFormat, nginxConf: String?,
        inConfig: Bool
    ) -> [String] {
        sources.filter { $0.lines > 0 && $0.malformed * 2 > $0.lines && !$0.mostlyMalformed && $0.error == nil }
            .compactMap { source in
                let hint = message(source, samples: samples, format: format, nginxConf: nginxConf, inConfig: inConfig)
                guard hint.fits else { return nil }
                return hint.text
                    + "\n  (\(source.lines) line\(source.lines == 1 ? "" : "s") only: an input is exit 8 from "
                    + "\(AuditResult.Source.mismatchMinimumLines) lines)"
            }
    }

    /// How an input's error reads: its cause, and, when its damage explains its malformed
    /// lines, how many of them there are.
    static func error(of source: AuditResult.Source) -> String? {
        guard let error = source.error else { return nil }
        guard source.damageExplainsMalformed, let first = source.firstMalformed else {
            return "\(source.path): \(error)"
        }
        return
            "\(source.path): \(error); \(source.malformed) of the \(source.lines) lines read from it are malformed, from line \(first) on, after lines the log format parses: damaged data decodes to such lines, so the damage, not the log format, is the likely cause (check it with `gzip -t`)"
    }

    private static func message(
        _ source: AuditResult.Source, samples allSamples: [AuditResult.Sample], format: LogFormat,
        nginxConf: String?, inConfig: Bool
    ) -> (text: String, fits: Bool) {
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
        let name = format.name.map { "'\($0)'" } ?? "given"
        var text =
            "\(source.path): \(source.malformed) of \(source.lines) lines do not match the log format \(name)"
        var candidates: [(LogFormat, String)] = []
        for builtin in BuiltinFormats.names where builtin != format.name || nginxConf != nil {
            if let compiled = try? BuiltinFormats.named(builtin) {
                candidates.append(
                    (
                        compiled,
                        inConfig ? "\"format\": {\"name\": \"\(builtin)\"} in the config" : "--format \(builtin)"
                    ))
            }
        }
        if let nginxConf, let tree = try? NginxConfigTree.load(path: nginxConf), let formats = try? tree.logFormats() {
            for entry in formats where entry.name != format.name {
                guard let compiled = entry.format else { continue }
                let use =
                    inConfig
                    ? "\"format\": {\"name\": \"\(entry.name)\", \"nginx_conf\": \"\(nginxConf)\"} in the config"
                    : "--nginx-conf \(nginxConf) --format \(entry.name)"
                candidates.insert((compiled, use), at: 0)
            }
        }
        var fits = false
        if let fit = FormatProbe.otherFit(lines, given: format, among: candidates.map(\.0)),
            let use = candidates.first(where: { $0.0 == fit })?.1
        {
            text += "; they parse as '\(fit.name ?? fit.string)': use \(use)"
            fits = true
        } else {
            let tried = candidates.compactMap(\.0.name).joined(separator: ", ")
            text +=
                "; no known format parses them either (tried \(tried.isEmpty ? "none" : tried)): "
                + "run 'uaaudit doctor' to read nginx's access_log and log_format lines"
        }
        if source.unverified {
            text += " (it was read up to damage, which may also explain them: check it with `gzip -t`)"
        }
        if let sample = samples.first, let failure = FormatProbe.failure(of: sample.text, in: format) {
            text += "\n  line \(sample.line): \(failure)"
            text += "\n  \(TerminalText.escape(ReportText.render(Array(sample.text.prefix(160)))))"
        }
        return (text, fits)
    }
}
