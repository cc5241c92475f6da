import FoundationEssentials
import UAAuditInput
import UAAuditRun

/// What `doctor` found in an nginx configuration, and the advice it prints.
struct DoctorReport {
    /// What doctor found (``DoctorDiagnosis``): this renders it.
    var diagnosis: DoctorDiagnosis
    var stateDir = "/var/lib/uaaudit"
    var prom = "/var/lib/prometheus/node-exporter/uaaudit.prom"
    /// Whether this uaaudit is the Debian package's (its cron wrapper is installed): the advice
    /// then names the package's files, not the source tree's.
    var packaged = false
    /// The rules the operator gave (`--rules`, or those of `--config`), as an absolute path: the
    /// config names them, and doctor writes no rules of its own.
    var givenRules: String?

    /// The Debian package's cron wrapper, whose presence tells an installed package.
    static let packagedWrapper = "/usr/lib/uaaudit/uaaudit-cron.sh"

    // The parts of the diagnosis the text and the JSON name.
    var tree: NginxConfigTree { diagnosis.formats.tree }
    var checks: [FormatDiagnosis.LogCheck] { diagnosis.formats.checks }
    var skipped: [NginxConfigTree.AccessLog] { diagnosis.formats.skipped }
    var chosen: (definition: NginxConfigTree.Definition, logs: [String])? { diagnosis.formats.chosen }
    var apps: AppDiagnosis? { diagnosis.apps }
    var nginxRules: NginxRulesDiagnosis { diagnosis.nginxRules }

    /// Whether the package is installed: its wrapper is an executable file.
    /// `UAAUDIT_PACKAGED_WRAPPER` names another path to look at (for tests).
    static func isPackaged(environment: [String: String]) -> Bool {
        let path = environment["UAAUDIT_PACKAGED_WRAPPER"] ?? packagedWrapper
        return FileManager.default.isExecutableFile(atPath: path)
    }

    var status: ExitCode {
        switch diagnosis.formats.verdict {
        case .mismatch: .formatMismatch
        case .unreadable: .input
        case .fine: .success
        }
    }

    func render() -> String {
        var out =
            "nginx configuration: \(tree.mainPath) (\(tree.files.count) file\(tree.files.count == 1 ? "" : "s") read)\n"
        out += "\nlog formats:\n"
        for definition in tree.definitions {
            let needs = FormatNeeds(formatString: definition.string)
            out += "  \(definition.name) (\(definition.place ?? "predefined by nginx"))"
            if definition.escape != .default { out += " escape=\(definition.escape.rawValue)" }
            out += ": " + describe(needs) + "\n"
        }
        out += "\naccess logs:\n"
        if checks.isEmpty && skipped.isEmpty {
            out += "  none: nginx then writes logs/access.log under its prefix in combined\n"
        }
        for check in checks {
            out += "  \(check.log.path ?? "") (format \(check.log.formatName), \(check.log.place))\n"
            if check.definition == nil {
                out += "    format: no log_format named \(check.log.formatName) was found\n"
            } else if let needs = check.needs, !needs.auditable {
                out += "    format: cannot be audited; it lacks \(needs.missing.joined(separator: "; "))\n"
            } else if check.compiled == nil {
                out += "    format: does not compile\n"
            }
            if let unreadable = check.unreadable {
                out += "    log: cannot read it: \(unreadable)\n"
            } else if check.compiled != nil {
                out +=
                    "    log: readable; last \(check.checked) lines: \(check.parsed) parse as \(check.log.formatName)\n"
                if let failure = check.failure { out += "      first that does not: \(failure)\n" }
                switch check.admCanRead {
                case .fileClosed:
                    out +=
                        "      the uaaudit account (group adm) cannot read it: make it group adm, mode 0640 "
                        + "(Debian's logrotate: create 0640 www-data adm)\n"
                case .directoryClosed(let directory):
                    out +=
                        "      the uaaudit account (group adm) cannot reach it: \(directory) does not let "
                        + "group adm search it (chmod o+x, or group adm with g+x)\n"
                case .directoryUnlisted(let directory):
                    out +=
                        "      the uaaudit account (group adm) cannot list \(directory), where run finds its "
                        + "rotated files (chmod o+r, or group adm with g+r)\n"
                case .readable, nil: break
                }
            } else {
                out += "    log: readable (\(check.checked) lines checked)\n"
            }
        }
        for log in skipped {
            let what: String
            if let path = log.path, log.replaced {
                what = "\(path): never written (each server block has an access_log of its own, which replaces it)"
            } else if let path = log.path {
                what =
                    path.hasPrefix("syslog:") || path.contains("$")
                    ? "\(path): not a plain file"
                    : "\(path): relative to nginx's prefix (nginx -V: --prefix); give uaaudit the absolute path"
            } else {
                what = "access_log off"
            }
            out += "  \(what) (\(log.place)): skipped\n"
        }
        if let apps { out += apps.render(givenRules: givenRules) }
        out += nginxRules.render()
        out += "\n"
        out += advice()
        return out
    }

    private func describe(_ needs: FormatNeeds) -> String {
        if needs.complete { return "UA, time, path, status, client key $\(needs.clientKey ?? ""): every figure" }
        if needs.auditable { return "UA and time (audit works); lacks \(needs.missing.joined(separator: "; "))" }
        return "cannot be audited; lacks \(needs.missing.joined(separator: "; "))"
    }

    private func advice() -> String {
        if checks.isEmpty, skipped.contains(where: { $0.path != nil }) {
            // Every file was skipped for its path, not its format: the format is not the problem.
            return "No access_log names a file uaaudit can follow (see 'skipped' above): give nginx an "
                + "access_log with an absolute path to a plain file, or tell uaaudit the file nginx writes "
                + "(uaaudit run --format NAME /path/to/access.log), then run uaaudit doctor again.\n"
        }
        guard let chosen, let config = configJSON() else {
            let paths = checks.compactMap(\.log.path)
            let logs = paths.isEmpty ? ["/var/log/nginx/access.log"] : paths
            var out = "No access_log has a format with the UA and a time. Add to nginx's http block:\n\n"
            out += "    \(DoctorReport.logFormatLine)\n\n"
            out += "and make each access_log use it:\n\n"
            for log in logs { out += "    access_log \(log) ua_log;\n" }
            out += "\nthen check and reload nginx (nginx -t && nginx -s reload) and run uaaudit doctor again.\n"
            return out
        }
        var out = "Use this uaaudit config (--write-config /etc/uaaudit/uaaudit.json writes it):\n\n"
        out += config
        let others = checks.filter { $0.compiled != nil && $0.definition?.name != chosen.definition.name }
        for other in others {
            out += "(\(other.log.path ?? "") is in format \(other.log.formatName): it needs a config of its own)\n"
        }
        if let needs = chosen.logs.isEmpty ? nil : FormatNeeds(formatString: chosen.definition.string), !needs.complete
        {
            out += "\nFor the cost and split-client figures too, log in ua_log instead:\n\n"
            out += "    \(DoctorReport.logFormatLine)\n"
            for log in chosen.logs { out += "    access_log \(log) ua_log;\n" }
        }
        out += hourlyJob()
        return out
    }

    /// How to set up the hourly run: the package's files when it is installed, else the
    /// source tree's cron/ directory.
    func hourlyJob() -> String {
        guard packaged else {
            return
                "\nThen the hourly job, as the uaaudit user (group adm reads /var/log/nginx), see cron/README.md:\n\n"
                + "    5 * * * *  uaaudit  /usr/local/bin/uaaudit-cron.sh     (/etc/cron.d/uaaudit)\n"
                + "or: systemctl enable --now uaaudit.timer                  (cron/uaaudit.service runs as User=uaaudit)\n"
        }
        return "\nThen the hourly job, as the uaaudit user (group adm reads /var/log/nginx), see "
            + "/usr/share/doc/uaaudit/README.Debian:\n\n"
            + "    systemctl enable --now uaaudit.timer         (uaaudit.service runs \(Self.packagedWrapper) as User=uaaudit)\n"
            + "or: remove the '#' of the last line of /etc/cron.d/uaaudit   (it runs \(Self.packagedWrapper))\n"
    }

    /// The `log_format` line for nginx's http block.
    static let logFormatLine = "log_format ua_log '\(BuiltinFormats.uaLog)';"

    /// The uaaudit config for the chosen logs, as JSON; nil when no format fits.
    func configJSON() -> String? {
        guard let config = diagnosis.runConfig(stateDir: stateDir, prom: prom, givenRules: givenRules) else {
            return nil
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(config) else { return nil }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
