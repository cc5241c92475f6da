import UAAuditInput

/// The apps a sample of traffic holds, by their UAs' shapes (``AppSighting``), and whether one
/// of them clearly is the operator's.
///
/// One app **dominates** when, among the candidates that can be the operator's app (seen in one
/// of an app's own shapes, not only as a web view's token, and not a well-known app's in-app
/// browser such as Instagram's or Facebook's), it has at least ``dominanceRatio`` times the
/// requests of the next, at least ``minShare`` of the requests sampled and at least
/// ``minRequests`` of them, and, where the log has a client key, no fewer distinct clients than
/// any other candidate (a burst from a few clients does not make an app the operator's): then
/// `doctor` writes its rules. Otherwise the candidates are listed and the operator names one.
package struct AppDetection: Equatable, Sendable {
    package struct Candidate: Equatable, Sendable {
        /// The app's name as its own UAs write it (the `--app` of `rules init`).
        package var name: String
        package var requests: Int64
        /// Requests per shape.
        var shapes: [AppSighting.Shape: Int64]
        /// Bundle names of its defaults other than `name` itself (extensions, other spellings),
        /// most requests first: `--bundle` values.
        package var bundles: [String]
        /// The token of its web view when written otherwise than `name` (`KAKAOTALK`).
        package var webviewToken: String?
        /// Distinct clients that sent its UAs, when the log has a client key.
        package var clients: Int?

        /// Whether it can be taken as the operator's app without being named: seen in an app's
        /// own shape (not only a web view's token) and not a well-known app's in-app browser.
        package var eligible: Bool {
            shapes.keys.contains { $0 != .webview } && !AppDetection.inAppBrowsers.contains(name.lowercased())
        }

        package init(
            name: String, requests: Int64 = 0, shapes: [AppSighting.Shape: Int64] = [:], bundles: [String] = [],
            webviewToken: String? = nil, clients: Int? = nil
        ) {
            self.clients = clients
            self.name = name
            self.requests = requests
            self.shapes = shapes
            self.bundles = bundles
            self.webviewToken = webviewToken
        }

        /// The shapes seen, most requests first.
        package var shapesSeen: [AppSighting.Shape] {
            shapes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        }

        /// `uaaudit rules init` for this app, shell-quoted, writing to `out`.
        package func rulesInitCommand(out: String) -> String {
            var words = ["uaaudit", "rules", "init", "--app", ShellWord.quoted(name)]
            for bundle in bundles { words += ["--bundle", ShellWord.quoted(bundle)] }
            if let webviewToken { words += ["--webview-token", ShellWord.quoted(webviewToken)] }
            words += ["--out", ShellWord.quoted(out)]
            return words.joined(separator: " ")
        }
    }

    /// Candidates, most requests first (then by name): the largest ``kept``.
    package var candidates: [Candidate]
    /// Every request of the sample, app-shaped or not.
    package var requests: Int64
    /// How many candidates there were in all (more than `candidates` holds when cut).
    package var found = 0

    /// Well-known apps whose in-app browsers visit every site: their token after WebKit's is
    /// another app's traffic, never taken as the operator's app without `--app`.
    package static let inAppBrowsers: Set<String> = [
        "instagram", "fban", "fbav", "fbios", "naver", "kakaotalk", "line", "micromessenger", "qq", "mqqbrowser",
        "snapchat", "gsa", "twitter", "linkedinapp", "pinterest", "bytedancewebview", "musical_ly", "tiktok",
        "dingtalk", "alipayclient", "weibo", "whatsapp", "telegram", "discord", "reddit", "duckduckgo",
    ]

    package static let dominanceRatio: Int64 = 3
    package static let minShare = 0.01
    package static let minRequests: Int64 = 10
    /// Candidates kept (the largest).
    static let kept = 10
    /// Bundle names kept per candidate.
    static let keptBundles = 6

    /// The candidate that dominates, or nil when none does.
    package var dominant: Candidate? {
        let eligible = candidates.filter(\.eligible)
        guard let first = eligible.first else { return nil }
        let next = eligible.dropFirst().first?.requests ?? 0
        guard first.requests >= Self.minRequests, first.requests >= Self.dominanceRatio * next,
            Double(first.requests) >= Self.minShare * Double(requests)
        else { return nil }
        // A burst from a few clients: another candidate that more clients sent is not outvoted.
        if let clients = first.clients, candidates.contains(where: { ($0.clients ?? 0) > clients }) { return nil }
        return first
    }

    /// The candidate named `name` (any case), if the sample holds it.
    package func candidate(named name: String) -> Candidate? {
        candidates.first { $0.name.lowercased() == name.lowercased() }
    }

    /// Detects the apps in UAs with their request counts. `requests` is the sample's total
    /// (at least the sum of `uas`: requests without a UA count there too).
    /// `clients` holds, per UA, the hashes of the clients that sent it, when the log has a
    /// client key.
    package static func detect(
        _ uas: [(ua: String, count: Int64)], requests: Int64? = nil, clients: [String: Set<UInt64>]? = nil
    ) -> AppDetection {
        struct Group {
            var requests: Int64 = 0
            var shapes: [AppSighting.Shape: Int64] = [:]
            /// Spellings of the name by who wrote them: own UAs, web views, defaults.
            var own: [String: Int64] = [:]
            var webview: [String: Int64] = [:]
            var bundles: [String: Int64] = [:]
            var clients: Set<UInt64> = []
        }
        var groups: [String: Group] = [:]
        var total: Int64 = 0
        for (ua, count) in uas {
            total += count
            guard let sighting = AppSighting.read(ua) else { continue }
            let key = sighting.app.lowercased()
            var group = groups[key] ?? Group()
            group.requests += count
            group.shapes[sighting.shape, default: 0] += count
            if let sent = clients?[ua] { group.clients.formUnion(sent) }
            switch sighting.shape {
            case .custom, .alamofire, .cfnetworkCustom: group.own[sighting.app, default: 0] += count
            case .webview: group.webview[sighting.app, default: 0] += count
            case .cfnetworkDefault: group.bundles[sighting.name, default: 0] += count
            }
            groups[key] = group
        }
        var candidates: [Candidate] = groups.values.map { group in
            let ownName = mostFrequent(group.own)
            let webName = mostFrequent(group.webview)
            let bundleNames = byCount(group.bundles)
            let name = ownName ?? webName ?? AppSighting.stripExtension(bundleNames.first ?? "")
            return Candidate(
                name: name, requests: group.requests, shapes: group.shapes,
                // The app's own name and its extensions (`NAME WatchKit Extension`) need no --bundle.
                bundles: Array(
                    bundleNames.filter { AppSighting.stripExtension($0).lowercased() != name.lowercased() }
                        .prefix(keptBundles)),
                webviewToken: webName.flatMap { $0 == name ? nil : $0 },
                clients: clients == nil ? nil : group.clients.count)
        }
        candidates.sort { $0.requests != $1.requests ? $0.requests > $1.requests : $0.name < $1.name }
        return AppDetection(
            candidates: Array(candidates.prefix(kept)), requests: max(requests ?? total, total),
            found: candidates.count)
    }

    private static func byCount(_ counts: [String: Int64]) -> [String] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    private static func mostFrequent(_ counts: [String: Int64]) -> String? { byCount(counts).first }
}
