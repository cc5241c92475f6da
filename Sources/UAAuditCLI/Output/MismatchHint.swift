import UAAuditAudit
import UAAuditInput
import UAAuditRun

/// The stderr message of exit 8: an input does not match its log format. It names a format
/// that parses the malformed lines (built-in, or from the nginx config when one was given) and
/// says, for one sample, which field failed at which byte. The core finds them
/// (``FormatMismatch``); this only words them.
enum MismatchHint {
    /// One message per mismatched input (``FormatMismatch/mismatches(sources:samples:format:nginxConf:)``);
    /// empty when none mismatches.
    static func messages(
        sources: [AuditResult.Source], samples: [AuditResult.Sample], format: LogFormat, nginxConf: String?,
        inConfig: Bool
    ) -> [String] {
        FormatMismatch.mismatches(sources: sources, samples: samples, format: format, nginxConf: nginxConf).map {
            message($0, format: format, inConfig: inConfig)
        }
    }

    /// The same hint for an input too short for exit 8 (fewer than
    /// ``AuditResult/Source/mismatchMinimumLines`` lines) whose lines are mostly malformed, when
    /// a known format parses them: a 60-line `combined` log read as `ua_log` is told so too.
    static func shortInputHints(
        sources: [AuditResult.Source], samples: [AuditResult.Sample], format: LogFormat, nginxConf: String?,
        inConfig: Bool
    ) -> [String] {
        FormatMismatch.shortInputs(sources: sources, samples: samples, format: format, nginxConf: nginxConf).map {
            let lines = $0.source.lines
            return message($0, format: format, inConfig: inConfig)
                + "\n  (\(lines) line\(lines == 1 ? "" : "s") only: an input is exit 8 from "
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

    private static func message(_ mismatch: FormatMismatch, format: LogFormat, inConfig: Bool) -> String {
        let source = mismatch.source
        let name = format.name.map { "'\($0)'" } ?? "given"
        var text =
            "\(source.path): \(source.malformed) of \(source.lines) lines do not match the log format \(name)"
        if let fit = mismatch.fit {
            text += "; they parse as '\(fit.label)': use \(use(fit, inConfig: inConfig))"
        } else {
            let tried = mismatch.tried.joined(separator: ", ")
            text +=
                "; no known format parses them either (tried \(tried.isEmpty ? "none" : tried)): "
                + "run 'uaaudit doctor' to read nginx's access_log and log_format lines"
        }
        if source.unverified {
            text += " (it was read up to damage, which may also explain them: check it with `gzip -t`)"
        }
        if let sample = mismatch.sample, let failure = mismatch.failure {
            text += "\n  line \(sample.line): \(failure)"
            text += "\n  \(TerminalText.escape(ReportText.render(Array(sample.text.prefix(160)))))"
        }
        return text
    }

    /// How to choose the format that fits: on the command line, or in the config `run` read.
    private static func use(_ fit: FormatMismatch.Fit, inConfig: Bool) -> String {
        guard let nginxConf = fit.nginxConf else {
            return inConfig ? "\"format\": {\"name\": \"\(fit.name)\"} in the config" : "--format \(fit.name)"
        }
        return inConfig
            ? "\"format\": {\"name\": \"\(fit.name)\", \"nginx_conf\": \"\(nginxConf)\"} in the config"
            : "--nginx-conf \(nginxConf) --format \(fit.name)"
    }
}
