import UAAuditAudit
import UAAuditInput

/// Which UA shapes the rules leave in `other`, and when that deserves a warning.
///
/// Made from an hour's UA families (digits collapsed to `#`, as drift counts them). A family
/// classed `other` is warned about when it contains the rules' `app` name (the app's own UA
/// drifted to a shape no rule matches), or when it alone carries more than ``warnShare`` of an
/// hour of at least `min_requests` requests.
package enum Coverage {
    /// A single family classed `other` over this share of an hour's requests is warned about.
    static let warnShare = 0.10
    /// Families listed per hour (and warnings given per hour).
    static let listed = 10

    /// The coverage entry of an hour whose families (report text → class → requests) are given;
    /// nil when nothing was classed `other`.
    static func entry(
        families: [String: [String: Int64]], approximate: Bool, requests: Int64, minRequests: Int64,
        rules: RulesSummary
    ) -> Report.CoverageEntry? {
        var other: [String: Int64] = [:]
        var otherApp: [String: Int64] = [:]
        let appFamily = rules.app.map(familyText)
        for (family, byClass) in families {
            if let n = byClass["other"], n > 0 { other[family] = n }
            if let n = byClass[otherAppClass], n > 0, let appFamily, containsIgnoringCase(family, appFamily) {
                otherApp[family] = n
            }
        }
        return entry(
            other: other, approximate: approximate, requests: requests, minRequests: minRequests, rules: rules,
            otherApp: otherApp)
    }

    /// The class `rules init` gives other apps' UAs: one there that names the rules' app is
    /// likely the app's own UA in a shape its rules miss (`MyApp/2.2 CFNetwork/… Darwin/… (iPhone iOS/16.6)`).
    static let otherAppClass = "other_app"

    /// The coverage entry from requests classed `other` per family.
    static func entry(
        other: [String: Int64], approximate: Bool, requests: Int64, minRequests: Int64, rules: RulesSummary,
        otherApp: [String: Int64] = [:]
    ) -> Report.CoverageEntry? {
        guard !other.isEmpty || !otherApp.isEmpty else { return nil }
        let sorted = other.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let appFamily = rules.app.map(familyText)
        var warnings: [String] = []
        var listedFamilies: [Report.OtherFamilyEntry] = []
        for (family, count) in sorted {
            let share = ReportBuilder.share(count, requests)
            let isApp = appFamily.map { containsIgnoringCase(family, $0) } ?? false
            if listedFamilies.count < listed {
                listedFamilies.append(
                    Report.OtherFamilyEntry(family: family, count: count, share: share, app: isApp ? true : nil))
            }
            let large = share > warnShare && requests >= minRequests
            if (isApp || large) && warnings.count < listed {
                warnings.append(warning(family: family, share: share, isApp: isApp, rules: rules))
            }
        }
        let named = otherApp.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        for (family, count) in named where warnings.count < listed {
            warnings.append(
                "`\(family)` is \(InsightReport.percent(ReportBuilder.share(count, requests))) of requests and classed "
                    + "\(otherAppClass), but it names the app \(rules.app ?? ""): if it is your app's own UA, make "
                    + "a rule of your app's classes match it. `uaaudit classify [--rules FILE] '\(exampleUA(family))'`")
        }
        return Report.CoverageEntry(otherFamilies: listedFamilies, approximate: approximate, warnings: warnings)
    }

    /// The warning for a family classed `other`, with a `classify` command to try on its shape.
    static func warning(family: String, share: Double, isApp: Bool, rules: RulesSummary) -> String {
        let subject = "`\(family)` is \(InsightReport.percent(share)) of requests and classed other: "
        let question: String
        if isApp {
            let expected: String
            if family.contains("CFNetwork/") {
                expected = "inconsistent"
            } else if family.contains("AppleWebKit/") {
                expected = "webview"
            } else {
                expected = "urlsession"
            }
            let rule = rules.order.contains(expected) ? "your `\(expected)` rule" : "a rule"
            question = "it names the app \(rules.app ?? ""); does \(rule) match it?"
        } else {
            question = "does a rule match it?"
        }
        return subject + question + " `uaaudit classify [--rules FILE] '\(exampleUA(family))'`"
    }

    /// A UA of the family's shape (each `#` a 1), quoted for a POSIX shell's single quotes.
    static func exampleUA(_ family: String) -> String {
        var out = ""
        for ch in family {
            switch ch {
            case "#": out += "1"
            case "'": out += "'\\''"
            default: out.append(ch)
            }
        }
        return out
    }

    /// The app name as families show it (digits collapsed to `#`).
    static func familyText(_ name: String) -> String {
        ReportText.render(UAFamily.of(Array(name.utf8)))
    }

    static func containsIgnoringCase(_ text: String, _ part: String) -> Bool {
        guard !part.isEmpty else { return false }
        return text.lowercased().contains(part.lowercased())
    }

    /// The largest `other` families over several hours (each hour's list summed, so an
    /// approximation when hours listed only their largest), and the hours' warnings.
    package static func overall(_ hours: [Report.HourEntry]) -> (
        families: [Report.OtherFamilyEntry], warnings: [String]
    ) {
        var sums: [String: (count: Int64, app: Bool)] = [:]
        var requests: Int64 = 0
        var warnings: [String] = []
        for hour in hours {
            requests += hour.requests
            guard let coverage = hour.coverage else { continue }
            for f in coverage.otherFamilies {
                let old = sums[f.family] ?? (0, false)
                sums[f.family] = (old.count + f.count, old.app || f.app == true)
            }
            for w in coverage.warnings where !warnings.contains(w) { warnings.append(w) }
        }
        let families = sums.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
        }
        .prefix(listed).map {
            Report.OtherFamilyEntry(
                family: $0.key, count: $0.value.count, share: ReportBuilder.share($0.value.count, requests),
                app: $0.value.app ? true : nil)
        }
        return (Array(families), warnings)
    }
}

extension Report {
    /// The UA shapes that no rule matched in an hour, and warnings about them.
    public struct CoverageEntry: Codable, Equatable, Sendable {
        /// The largest families classed `other`, most requests first (at most 10).
        public var otherFamilies: [OtherFamilyEntry]
        /// True when the hour had more families than are tracked, so the list may miss some.
        public var approximate: Bool
        /// One sentence per family classed `other` that names the rules' `app`, or that alone is
        /// over 10% of an hour of at least `min_requests` requests (at most 10).
        public var warnings: [String]

        enum CodingKeys: String, CodingKey {
            case approximate, warnings
            case otherFamilies = "other_families"
        }
    }

    public struct OtherFamilyEntry: Codable, Equatable, Sendable {
        public var family: String
        public var count: Int64
        /// The family's share of the hour's requests.
        public var share: Double
        /// True when the family contains the rules' `app` name (absent otherwise).
        public var app: Bool?
    }
}
