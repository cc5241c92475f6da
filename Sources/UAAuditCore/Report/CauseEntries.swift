extension Report {
    /// Why an hour's inconsistent family was sent: which stack, what to change, since which app
    /// release and on which iOS versions (``CauseReport``).
    public struct CauseEntry: Codable, Equatable, Sendable {
        /// The family (digit runs as `#`), as `drift.families` writes it.
        public var family: String
        /// The hour's alert-class requests of the family.
        public var requests: Int64
        /// `urlsession_default`, `wkwebview_without_token`, `safari`, `sdk` or `unknown`.
        public var stack: String
        /// The bundle a CFNetwork default names (the app's, or an extension's).
        public var bundle: String?
        public var bundleIsExtension: Bool?
        /// The SDK's product token, for `sdk`.
        public var sdk: String?
        /// Where to fix it, in one sentence.
        public var fix: String
        /// The app release the family's split clients are on, when one clearly stands out.
        public var release: ReleaseEntry?
        /// Why `release` is null.
        public var releaseNote: String?
        /// The iOS versions the family's UAs name (`17.4`), oldest first.
        public var ios: [String]
        /// True when some of them come from `Darwin/x.y` alone (a UA naming no device: it could
        /// be macOS).
        public var iosFromDarwinOnly: Bool?
        /// The first hour of the report (or of `run`'s state) with the family.
        public var firstSeen: String

        enum CodingKeys: String, CodingKey {
            case family, requests, stack, bundle, sdk, fix, release, ios
            case bundleIsExtension = "bundle_is_extension"
            case releaseNote = "release_note"
            case iosFromDarwinOnly = "ios_from_darwin_only"
            case firstSeen = "first_seen"
        }
    }

    /// The release of a cause, as estimated client counts (sampled × 2^level).
    public struct ReleaseEntry: Codable, Equatable, Sendable {
        public var version: String
        /// The family's split clients on the version.
        public var splitClients: Int64
        /// The app's clients on the version.
        public var clientsOnVersion: Int64
        /// The family's split clients, all versions.
        public var familySplitClients: Int64
        /// `high` or `medium` (``ReleaseVerdict``).
        public var confidence: String
        /// The release that does not send it: the most used of those that do not stand out.
        public var consistent: VersionEntry?
        /// True when the counts are estimates (a sample of the hour's clients) or bounded lists
        /// were cut.
        public var approximate: Bool

        enum CodingKeys: String, CodingKey {
            case version, confidence, consistent, approximate
            case splitClients = "split_clients"
            case clientsOnVersion = "clients_on_version"
            case familySplitClients = "family_split_clients"
        }
    }

    public struct VersionEntry: Codable, Equatable, Sendable {
        public var version: String
        public var splitClients: Int64
        public var clientsOnVersion: Int64

        enum CodingKeys: String, CodingKey {
            case version
            case splitClients = "split_clients"
            case clientsOnVersion = "clients_on_version"
        }
    }
}

/// Makes an hour's ``Report/CauseEntry`` list from its ``HourInsight``.
package enum CauseReport {
    /// The hour's alert-class families with their causes, most requests first, at most `limit`.
    /// `firstSeen` gives the first hour (report text) a family was seen in; `tallies` are the
    /// hour's release figures (nil without a client key).
    package static func entries(
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

    /// The hour's release figures as a report carries them for `merge`: only the families listed.
    package static func carried(_ tallies: ReleaseTallies, families: [Report.CauseEntry]) -> ReleaseTallies {
        var t = tallies
        let listed = Set(families.map(\.family))
        t.families = t.families.filter { listed.contains($0.key) }
        return t
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

    /// `urlsession_default (bundle MyShop Share Extension)`.
    package static func stackText(_ entry: Report.CauseEntry) -> String {
        if let bundle = entry.bundle {
            return entry.stack + " (" + (entry.bundleIsExtension == true ? "extension " : "bundle ") + bundle + ")"
        }
        if let sdk = entry.sdk { return entry.stack + " (" + sdk + ")" }
        return entry.stack
    }
}
