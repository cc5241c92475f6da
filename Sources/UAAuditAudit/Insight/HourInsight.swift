import UAAuditInput

/// An hour's figures beyond the class counts, keyed by text: what `run` keeps in its state per
/// hour and what the report's impact, path, client and drift entries are made from.
package struct HourInsight: Codable, Equatable, Sendable {
    /// Responses by status per class name; nil when the format has no `$status`.
    package var statuses: [String: StatusCounts]?
    /// The alert class's request paths (decoded, as report text).
    package var paths: [String: PathCount] = [:]
    /// True when some alert-class paths did not fit the bounded tables.
    package var pathsApproximate = false
    /// Requests per UA family (report text) and class name.
    package var families: [String: [String: Int64]] = [:]
    package var familiesApproximate = false
    /// True when the hour's families were dropped (``AuditResult/detailHours``): drift cannot
    /// tell what is new in it, nor against it. Not kept in `run`'s state.
    package var familiesDropped = false
    /// The clients by kind of request; nil when the format lacks the client key.
    package var clients: ClientSet?
    /// `run` only: whether the hour's drift alert fired when it closed.
    package var driftBreached: Bool?
    /// Per alert-class family (report text): the stack, bundle and iOS versions its UAs show.
    package var causes: [String: CauseDetail]?
    /// The clients' app versions and alert families (``ReleaseClients``); nil without a client key.
    package var releases: ReleaseClients?

    /// The most paths and families an hour keeps in the state.
    static let maxPaths = 500
    static let maxFamilies = 500

    enum CodingKeys: String, CodingKey {
        case statuses, paths, families, clients, causes, releases
        case pathsApproximate = "paths_approximate"
        case familiesApproximate = "families_approximate"
        case driftBreached = "drift_breached"
    }

    package init() {}

    /// The figures of one hour of an audit.
    package init(_ hour: AuditResult.HourTally, configuration: ScanConfiguration) {
        let names = configuration.rules.classNames
        let classCount = configuration.rules.classCount
        if configuration.format.variableNames.contains("status") {
            var statuses: [String: StatusCounts] = [:]
            for (i, name) in names.enumerated() {
                let base = classCount + 2 + i * StatusCounts.slots
                statuses[name] = StatusCounts(hour.counts[base..<(base + StatusCounts.slots)])
            }
            self.statuses = statuses
        }
        for (path, count) in hour.paths {
            let text = ReportText.render(path)
            paths[text, default: PathCount()].count += count.count
            paths[text, default: PathCount()].rejected += count.rejected
        }
        pathsApproximate = hour.untrackedPaths > 0
        for (key, n) in hour.families where key.cls < names.count {
            families[ReportText.render(key.family), default: [:]][names[key.cls], default: 0] += n
        }
        familiesApproximate = hour.untrackedFamilies > 0
        familiesDropped = hour.detailsDropped
        if configuration.clientField != nil {
            clients = hour.clients
            clients?.showExamples(salt: configuration.insight.salt, full: configuration.insight.showClientKeys)
            releases = hour.releases
        }
        // An hour whose details were dropped lists no families, so no causes.
        if !hour.alertUAs.isEmpty, !hour.detailsDropped {
            causes = CauseDetail.details(of: hour.alertUAs, app: configuration.rules.app)
        }
        trim()
    }

    /// Adds another part of the same hour (a later run's lines).
    package mutating func merge(_ other: HourInsight) {
        if let theirs = other.statuses {
            var mine = statuses ?? [:]
            for (name, s) in theirs { mine[name, default: StatusCounts()].add(s) }
            statuses = mine
        }
        for (path, c) in other.paths {
            paths[path, default: PathCount()].count += c.count
            paths[path, default: PathCount()].rejected += c.rejected
        }
        pathsApproximate = pathsApproximate || other.pathsApproximate
        for (family, byClass) in other.families {
            for (name, n) in byClass { families[family, default: [:]][name, default: 0] += n }
        }
        familiesApproximate = familiesApproximate || other.familiesApproximate
        // A part whose families were dropped leaves the hour blind to drift: without this, a
        // first run on a week-old log saw its older hours as having no families at all, and the
        // first hour with details got a "new family" drift alert for the app's own UA.
        familiesDropped = familiesDropped || other.familiesDropped
        if let theirs = other.clients {
            var mine = clients ?? ClientSet()
            mine.merge(theirs)
            clients = mine
        }
        if let theirs = other.causes {
            var mine = causes ?? [:]
            for (family, detail) in theirs {
                if mine[family] == nil { mine[family] = detail } else { mine[family]?.add(detail) }
            }
            causes = mine
        }
        if let theirs = other.releases {
            var mine = releases ?? ReleaseClients()
            mine.merge(theirs)
            releases = mine
        }
        trim()
    }

    /// Requests of a family, all classes.
    package static func total(_ byClass: [String: Int64]) -> Int64 { byClass.values.reduce(0, +) }

    private mutating func trim() {
        if paths.count > HourInsight.maxPaths {
            let kept = paths.sorted {
                $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
            }
            .prefix(HourInsight.maxPaths)
            paths = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            pathsApproximate = true
        }
        if families.count > HourInsight.maxFamilies {
            let kept = families.sorted {
                let (a, b) = (HourInsight.total($0.value), HourInsight.total($1.value))
                return a != b ? a > b : $0.key < $1.key
            }.prefix(HourInsight.maxFamilies)
            families = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            familiesApproximate = true
        }
        if let all = causes, all.count > HourInsight.maxFamilies {
            causes = all.filter { families[$0.key] != nil }
        }
    }
}
