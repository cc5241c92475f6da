import UAAuditAudit
import UAAuditInput

/// What `doctor` found of an nginx configuration's access logs: each log's format, whether
/// the log can be read and whether its last lines parse, and the format to audit.
package struct FormatDiagnosis: Sendable {
    /// One access_log: its format, and what its last lines showed.
    package struct LogCheck: Sendable {
        package var log: NginxConfigTree.AccessLog
        package var definition: NginxConfigTree.Definition?
        package var needs: FormatNeeds?
        package var compiled: LogFormat?
        /// Why the log could not be read, if so.
        package var unreadable: String?
        package var checked = 0
        package var parsed = 0
        /// Where the first checked line that did not parse departs from the format.
        package var failure: FormatProbe.Failure?
        /// Whether the service account's group (adm) can read the log by its mode.
        package var admCanRead: GroupReadAccess?
    }

    /// What the logs say of the configuration, worst first.
    package enum Verdict: Sendable, Equatable {
        /// A log's lines do not parse in its format, or no access_log has a format to audit.
        case mismatch
        /// A log could not be read (and no log's lines contradict its format).
        case unreadable
        case fine
    }

    package var tree: NginxConfigTree
    package var checks: [LogCheck] = []
    /// The access_logs uaaudit cannot follow (off, syslog, a variable, a relative path, one
    /// each server replaces).
    package var skipped: [NginxConfigTree.AccessLog] = []

    /// Checks each access_log's last `lastLines` lines in its format.
    static func examine(_ tree: NginxConfigTree, lastLines: Int) -> FormatDiagnosis {
        var report = FormatDiagnosis(tree: tree)
        let definitions = tree.definitions
        var seen: Set<String> = []
        for log in tree.accessLogs {
            guard let path = log.path, !path.hasPrefix("syslog:"), !path.contains("$"), path.hasPrefix("/"),
                !log.replaced
            else {
                report.skipped.append(log)
                continue
            }
            guard seen.insert(path).inserted else { continue }
            var check = LogCheck(log: log)
            check.definition = definitions.first { $0.name == log.formatName }
            if let definition = check.definition {
                check.needs = FormatNeeds(formatString: definition.string)
                check.compiled = try? definition.compile()
            }
            check.admCanRead = Syscalls.groupCanRead(path, group: "adm")
            do throws(InputError) {
                if GzipFile.detect(path) {
                    // access_log … gzip=: nginx compresses as it writes; run follows plain files.
                    throw InputError(
                        path: path,
                        reason: "is gzip-compressed (access_log … gzip=): uaaudit run cannot follow it; "
                            + "log the audited access_log without gzip=")
                }
                let lines = try LogTail.lastLines(path: path, count: lastLines)
                check.checked = lines.count
                if let format = check.compiled {
                    for line in lines {
                        if FormatProbe.parses(line, as: format) {
                            check.parsed += 1
                        } else if check.failure == nil, let failure = FormatProbe.failure(of: line, in: format) {
                            check.failure = failure
                        }
                    }
                }
            } catch {
                check.unreadable = error.reason
            }
            report.checks.append(check)
        }
        return report
    }

    /// The format to audit and its logs: a format whose logs have recent lines that parse (a
    /// log nginx writes beats one a `server` overrides and leaves empty), then the one with
    /// most logs, then the first in the config.
    package var chosen: (definition: NginxConfigTree.Definition, logs: [String])? {
        var groups: [(definition: NginxConfigTree.Definition, logs: [String], parsed: Int)] = []
        // A log run cannot read (gzip=, not a plain file, unreadable) is not suggested.
        for check in checks where check.compiled != nil && check.unreadable == nil {
            guard let definition = check.definition, let path = check.log.path else { continue }
            if let i = groups.firstIndex(where: { $0.definition.name == definition.name }) {
                groups[i].logs.append(path)
                groups[i].parsed += check.parsed
            } else {
                groups.append((definition, [path], check.parsed))
            }
        }
        var best: (definition: NginxConfigTree.Definition, logs: [String], parsed: Int)?
        for group in groups {
            guard let current = best else {
                best = group
                continue
            }
            if (group.parsed > 0 ? 1 : 0, group.logs.count) > (current.parsed > 0 ? 1 : 0, current.logs.count) {
                best = group
            }
        }
        return best.map { ($0.definition, $0.logs) }
    }

    package var verdict: Verdict {
        if chosen == nil {
            // Formats that would do, on logs that cannot be read: that is the problem to fix.
            let unreadableButAuditable = checks.contains { $0.compiled != nil && $0.unreadable != nil }
            return unreadableButAuditable ? .unreadable : .mismatch
        }
        if checks.contains(where: { $0.compiled != nil && $0.checked > 0 && $0.parsed * 2 <= $0.checked }) {
            return .mismatch
        }
        if checks.contains(where: { $0.unreadable != nil }) { return .unreadable }
        return .fine
    }
}
