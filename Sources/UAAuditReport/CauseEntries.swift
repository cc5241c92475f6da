import UAAuditAudit

/// Makes an hour's ``Report/CauseEntry`` list from its ``HourInsight``.
package enum CauseReport {
    /// The hour's alert-class families with their causes, most requests first, at most `limit`.
    /// `firstSeen` gives the first hour (report text) a family was seen in; `tallies` are the
    /// hour's release figures (nil without a client key).
    static func entries(
        insight: HourInsight, alertClass: String, app: String?, tallies: ReleaseTallies?, limit: Int,
        firstSeen: (String) -> String
    ) -> [Report.CauseEntry] {
        let families = insight.families.compactMap { family, byClass -> (String, Int64)? in
            guard let n = byClass[alertClass], n > 0 else { return nil }
            return (family, n)
        }
        .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        .prefix(limit)
        return families.map { family, requests in
            let detail =
                insight.causes?[family] ?? CauseDetail(UAAnatomy.read(family, app: app), requests: 0)
            var entry = Report.CauseEntry(
                family: family, requests: requests, stack: detail.stack.rawValue, bundle: detail.bundle,
                bundleIsExtension: detail.bundleIsExtension, sdk: detail.sdk,
                fix: CauseFix.sentence(
                    stack: detail.stack, bundle: detail.bundle, bundleIsExtension: detail.bundleIsExtension == true,
                    sdk: detail.sdk),
                release: nil, releaseNote: nil, ios: detail.iosVersions,
                iosFromDarwinOnly: detail.iosFromDarwinOnly, firstSeen: firstSeen(family))
            if let tallies {
                let verdict = ReleaseVerdict.judge(family: family, tallies: tallies)
                entry.release = release(verdict, tallies: tallies, family: family)
                entry.releaseNote = verdict.note
            } else {
                entry.releaseNote = "without a client key (--client-key) releases cannot be told"
            }
            return entry
        }
    }

    static func release(_ verdict: ReleaseVerdict, tallies: ReleaseTallies, family: String) -> Report.ReleaseEntry? {
        guard let side = verdict.release, let confidence = verdict.confidence else { return nil }
        let scale = { (n: Int64) -> Int64 in n << Int64(tallies.level) }
        return Report.ReleaseEntry(
            version: side.version, splitClients: scale(side.splitClients), clientsOnVersion: scale(side.clients),
            familySplitClients: scale(tallies.families[family]?.splitClients ?? 0), confidence: confidence,
            consistent: verdict.consistent.map {
                Report.VersionEntry(
                    version: $0.version, splitClients: scale($0.splitClients), clientsOnVersion: scale($0.clients))
            },
            approximate: tallies.level > 0 || tallies.approximate)
    }

    /// `from 3.3.0 (60 of 60 split clients; 0 of 80 clients on 3.2.1)`, or the note.
    package static func releaseText(_ entry: Report.CauseEntry) -> String {
        guard let r = entry.release else { return "release unknown: " + (entry.releaseNote ?? "no figures") }
        var text = "from \(r.version) (\(r.splitClients) of \(r.familySplitClients) split clients"
        if let c = r.consistent {
            text += "; \(c.splitClients) of \(c.clientsOnVersion) clients on \(c.version)"
        }
        return text + (r.approximate ? ", estimated" : "") + ", \(r.confidence) confidence)"
    }

    /// `iOS 17.4, iOS 17.5`, with a word when Darwin alone told them.
    package static func iosText(_ entry: Report.CauseEntry) -> String {
        guard !entry.ios.isEmpty else { return "iOS version unknown" }
        let list = entry.ios.map { "iOS " + $0 }.joined(separator: ", ")
        return entry.iosFromDarwinOnly == true ? list + " (from Darwin alone: could be macOS)" : list
    }

    /// `urlsession_default (bundle MyShop Share Extension)`; `shown` escapes the bundle and
    /// SDK (text from the log) as the output needs.
    package static func stackText(_ entry: Report.CauseEntry, shown: (String) -> String = { $0 }) -> String {
        if let bundle = entry.bundle {
            return entry.stack + " (" + (entry.bundleIsExtension == true ? "extension " : "bundle ") + shown(bundle)
                + ")"
        }
        if let sdk = entry.sdk { return entry.stack + " (" + shown(sdk) + ")" }
        return entry.stack
    }

    /// The entry's fix sentence, made again with the bundle and SDK `shown` as the output needs.
    package static func fixText(_ entry: Report.CauseEntry, shown: (String) -> String) -> String {
        guard entry.bundle != nil || entry.sdk != nil else { return entry.fix }
        return CauseFix.sentence(
            stack: UAAnatomy.Stack(rawValue: entry.stack) ?? .unknown, bundle: entry.bundle.map(shown),
            bundleIsExtension: entry.bundleIsExtension == true, sdk: entry.sdk.map(shown))
    }
}
