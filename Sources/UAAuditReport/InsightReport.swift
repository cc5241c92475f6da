import UAAuditAudit
import UAAuditInput

/// Turns each hour's ``HourInsight`` into the report's impact, path, client and drift entries.
///
/// Drift compares an hour with its baseline: the hours of the same report (a scan's earlier
/// hours, or the hours `run` keeps in its state) that start within `baseline_hours` before it.
package enum InsightReport {
    package struct HourInput: Sendable {
        package var key: HourKey
        var counts: HourCounts
        /// The hour's insight (an empty one when its counts have none).
        package var insight: HourInsight {
            get { counts.insight ?? HourInsight() }
            set { counts.insight = newValue }
        }
        var requests: Int64 { counts.requests }
        var classes: [String: Int64] { counts.classes }

        package init(key: HourKey, counts: HourCounts) {
            self.key = key
            self.counts = counts
        }
    }

    /// Records in `report` what merge needs to combine its client and drift figures with
    /// another report's: the salt's fingerprint, the drift settings, and whether client keys
    /// are shown in full.
    package static func describe(_ report: inout Report, configuration: ScanConfiguration) {
        if configuration.clientField != nil {
            report.clientSalt = configuration.insight.salt.fingerprint
            if configuration.insight.showClientKeys { report.clientKeysShown = true }
        }
        if configuration.insight.baselineHours > 0 { report.driftSettings = DriftPolicy(configuration).entry }
    }

    /// Families listed per hour as new.
    static let newFamiliesListed = 10

    /// Fills the new entries of `entries`, which are in the order of `inputs` (by instant).
    package static func fill(
        _ entries: inout [Report.HourEntry], from inputs: [HourInput], configuration: ScanConfiguration
    ) {
        let hasPaths = configuration.format.segments.contains {
            if case .variable(_, let role) = $0 { return role == .request || role == .uri } else { return false }
        }
        let policy = DriftPolicy(configuration)
        // The first hour each family was seen in (inputs are in instant order).
        var firstSeen: [String: String] = [:]
        for i in inputs.indices {
            for family in inputs[i].insight.families.keys where firstSeen[family] == nil {
                firstSeen[family] = entries[i].hour
            }
        }
        for i in inputs.indices {
            let insight = inputs[i].insight
            entries[i].impact = insight.statuses
            if hasPaths {
                entries[i].topPaths = insight.paths.sorted {
                    $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
                }.prefix(configuration.top).map {
                    Report.PathEntry(path: $0.key, count: $0.value.count, rejected: $0.value.rejected)
                }
                entries[i].topPathsApproximate = insight.pathsApproximate
            }
            if let clients = insight.clients {
                entries[i].clients = clientsEntry(clients, classes: inputs[i].classes, configuration: configuration)
            }
            if configuration.insight.baselineHours > 0 {
                entries[i].drift = drift(at: i, in: inputs, policy: policy)
                entries[i].drift?.carry(insight)
            }
            let tallies = insight.releases?.tallies
            let causes = CauseReport.entries(
                insight: insight, alertClass: configuration.rules.alertClass, app: configuration.rules.app,
                tallies: configuration.clientField == nil ? nil : tallies ?? ReleaseTallies(level: 0),
                limit: configuration.top, firstSeen: { firstSeen[$0] ?? entries[i].hour })
            if !causes.isEmpty { entries[i].causes = causes }
            // Carried whenever there are app clients: merge needs every host's app clients.
            if let set = insight.releases, !set.clients.isEmpty {
                entries[i].releases = ReleaseSampleEntry(set, salt: configuration.insight.salt)
            }
            entries[i].coverage = Coverage.entry(
                families: insight.families, approximate: insight.familiesApproximate, requests: inputs[i].requests,
                minRequests: configuration.minRequests, rules: configuration.rules.summary)
        }
    }

    /// The hour's client figures. Sampled estimates are capped at what the hour's requests
    /// allow (``ClientCounts/estimate(_:atMost:)``): app clients at its app-class requests,
    /// alert clients at its alert-class requests, split clients at the smaller of the two
    /// estimates. The cap only brings an estimate nearer the truth: crafted keys can push one
    /// far past it, and a sample of clients that each sent one request can overshoot a little.
    static func clientsEntry(
        _ set: ClientSet, classes: [String: Int64], configuration: ScanConfiguration
    ) -> Report.ClientsEntry {
        let settings = configuration.insight
        var entry = clientsEntry(
            counts: set.counts, classes: classes, key: "$" + (settings.clientKey ?? ""),
            appClasses: settings.appClasses.filter { configuration.rules.classNames.contains($0) },
            alertClass: configuration.rules.alertClass,
            examples: set.examplesHashed || settings.showClientKeys
                ? set.examples : set.examples.map { ClientSalt.looksHashed($0) ? $0 : settings.salt.display($0) })
        entry.sample = set.reportSample.map { Report.ClientSampleEntry($0, salt: settings.salt) }
        return entry
    }

    /// The client figures of sampled `counts` (see ``clientsEntry(_:classes:configuration:)``),
    /// for a scan's hour and for a merged one.
    static func clientsEntry(
        counts c: ClientCounts, classes: [String: Int64], key: String, appClasses: [String], alertClass: String,
        examples: [String]
    ) -> Report.ClientsEntry {
        let appRequests = Set(appClasses).subtracting([alertClass]).reduce(Int64(0)) { $0 + (classes[$1] ?? 0) }
        let app = c.estimate(c.app, atMost: appRequests)
        let alert = c.estimate(c.alert, atMost: classes[alertClass] ?? 0)
        let split = c.estimate(c.split, atMost: min(app, alert))
        return Report.ClientsEntry(
            key: key,
            appClasses: appClasses,
            app: app, alert: alert, split: split,
            splitShare: app > 0 ? Double(split) / Double(app) : 0,
            exact: c.level == 0, sampleRate: c.rate,
            splitError: c.standardError(c.split),
            examples: examples)
    }

    /// The drift entry of hour `i` against the hours before it.
    package static func drift(at i: Int, in inputs: [HourInput], policy: DriftPolicy) -> Report.DriftEntry {
        let settings = policy
        let hour = inputs[i]
        let window = baseline(of: i, in: inputs, hours: settings.baselineHours)
        var entry = Report.DriftEntry(
            baselineHours: window.count, newFamilies: [], newRequests: 0,
            approximate: hour.insight.familiesApproximate || window.contains { $0.insight.familiesApproximate },
            appShares: [], alert: false, reasons: [])
        // An hour whose families were dropped, or a baseline with such an hour, cannot say
        // what is new: every family would look new (a false drift alert). Nothing is listed.
        let blind = hour.insight.familiesDropped || window.contains { $0.insight.familiesDropped }
        if blind { entry.approximate = true }
        if !window.isEmpty, !blind {
            // Known: in some hour of the window; the nearest hours first (most families were
            // seen an hour ago), a lookup each rather than a set of every hour's families.
            let new = hour.insight.families.filter { family in
                !window.reversed().contains { $0.insight.families[family.key] != nil }
            }
            .map { (family: $0.key, total: HourInsight.total($0.value), byClass: $0.value) }
            .sorted { $0.total != $1.total ? $0.total > $1.total : $0.family < $1.family }
            entry.newRequests = new.reduce(0) { $0 + $1.total }
            entry.newFamilies = new.prefix(newFamiliesListed).map {
                let top = $0.byClass.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!
                return Report.FamilyEntry(
                    family: $0.family, class: top.key, count: $0.total,
                    share: ReportBuilder.share($0.total, hour.requests))
            }
        }
        entry.appShares = appShares(hour, window, policy: policy)
        if let limit = settings.newFamilyShare, hour.requests >= policy.minRequests {
            for family in entry.newFamilies where family.share > limit.value {
                entry.reasons.append(
                    "new UA family \(family.family) (\(family.class)) carries \(share(family.share, limit)) of the hour, "
                        + "over \(share(limit.value, limit))")
            }
        }
        let drops = shareDrops(hour, entry.appShares, window, policy: policy)
        if !drops.isEmpty, i > 0, inputs[i - 1].key.startInstant == hour.key.startInstant - 3600 {
            // Alert when the drop begins, not again every hour while it lasts.
            let before = inputs[i - 1]
            let earlier = baseline(of: i - 1, in: inputs, hours: settings.baselineHours)
            let dropping = Set(
                shareDrops(
                    before, appShares(before, earlier, policy: policy), earlier, policy: policy
                ).map(\.class))
            entry.reasons += drops.filter { !dropping.contains($0.class) }.map(\.reason)
        } else {
            entry.reasons += drops.map(\.reason)
        }
        entry.alert = !entry.reasons.isEmpty
        return entry
    }

    /// The hours of the `hours` before hour `i`'s start. `inputs` are in key order, which is
    /// instant order (``HourKey``), so the window is the one run of inputs just before `i`:
    /// found by a binary search, never by a pass over every earlier hour (which made a scan of
    /// many hours quadratic).
    static func baseline(of i: Int, in inputs: [HourInput], hours: Int) -> ArraySlice<HourInput> {
        let start = inputs[i].key.startInstant
        let from = start - Int64(hours) * 3600
        var end = i
        while end > 0, inputs[end - 1].key.startInstant >= start { end -= 1 }  // the same instant, other offsets
        var low = 0
        var high = end
        while low < high {
            let mid = (low + high) / 2
            if inputs[mid].key.startInstant < from { low = mid + 1 } else { high = mid }
        }
        return inputs[low..<end]
    }

    static func appShares(_ hour: HourInput, _ window: ArraySlice<HourInput>, policy: DriftPolicy) -> [Report
        .ShareChange]
    {
        let requests = window.reduce(Int64(0)) { $0 + $1.requests }
        return policy.appClasses.map { name in
            let count = window.reduce(Int64(0)) { $0 + ($1.classes[name] ?? 0) }
            return Report.ShareChange(
                class: name, share: ReportBuilder.share(hour.classes[name] ?? 0, hour.requests),
                baseline: requests > 0 ? ReportBuilder.share(count, requests) : nil)
        }
    }

    /// The app classes whose share fell by more than the configured fraction of the baseline's.
    static func shareDrops(
        _ hour: HourInput, _ shares: [Report.ShareChange], _ window: ArraySlice<HourInput>, policy: DriftPolicy
    ) -> [(class: String, reason: String)] {
        guard let limit = policy.shareDrop, hour.requests >= policy.minRequests,
            window.reduce(Int64(0), { $0 + $1.requests }) >= policy.minRequests
        else { return [] }
        return shares.compactMap { change in
            guard let baseline = change.baseline, baseline > 0 else { return nil }
            let drop = (baseline - change.share) / baseline
            guard drop > limit.value else { return nil }
            return (
                change.class,
                "\(change.class) share fell to \(percent(change.share)) from \(percent(baseline)) in the baseline "
                    + "(down \(share(drop, limit)), over \(share(limit.value, limit)))"
            )
        }
    }

    /// A share against a drift alert's limit, and the limit: at most one decimal, or as many as
    /// the limit was given with, and never reading as the limit when it is not
    /// (``ShareText/trimmed(_:against:usual:)``).
    static func share(_ value: Double, _ limit: Threshold) -> String {
        ShareText.trimmed(value, against: limit, usual: 1)
    }

    /// A share as a percentage with at most one decimal: `58.3%`.
    package static func percent(_ share: Double) -> String {
        ShareText.trimmed(share, decimals: 1)
    }
}

/// What drift is worked out with: the settings, the app classes the rules have, and the
/// alert policy's minimum of requests. A scan's come from its configuration, a merge's from
/// the reports (``Report/DriftSettingsEntry``).
package struct DriftPolicy: Sendable, Equatable {
    var baselineHours: Int
    var newFamilyShare: Threshold?
    var shareDrop: Threshold?
    var appClasses: [String]
    var minRequests: Int64

    package init(_ configuration: ScanConfiguration) {
        let insight = configuration.insight
        baselineHours = insight.baselineHours
        newFamilyShare = insight.newFamilyShare
        shareDrop = insight.shareDrop
        appClasses = insight.appClasses.filter { configuration.rules.classNames.contains($0) }
        minRequests = configuration.minRequests
    }

    init(_ settings: Report.DriftSettingsEntry, minRequests: Int64) {
        baselineHours = settings.baselineHours
        newFamilyShare = settings.newFamilyShare
        shareDrop = settings.shareDrop
        appClasses = settings.appClasses
        self.minRequests = minRequests
    }

    /// As a report records it.
    var entry: Report.DriftSettingsEntry {
        Report.DriftSettingsEntry(
            baselineHours: baselineHours, newFamilyShare: newFamilyShare, shareDrop: shareDrop, appClasses: appClasses)
    }
}

extension Report.DriftEntry {
    /// Carries the hour's families, so that `merge` can work drift out again.
    mutating func carry(_ insight: HourInsight) {
        families = insight.families.map { Report.FamilyCounts(family: $0.key, classes: $0.value) }.sorted {
            let (a, b) = (HourInsight.total($0.classes), HourInsight.total($1.classes))
            return a != b ? a > b : $0.family < $1.family
        }
        familiesApproximate = insight.familiesApproximate ? true : nil
        familiesDropped = insight.familiesDropped ? true : nil
    }
}
