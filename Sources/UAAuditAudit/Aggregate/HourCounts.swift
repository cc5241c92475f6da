import UAAuditInput

/// One hour's counts by name: the one shape of an hour that a scan builds (from its
/// ``AuditResult/HourTally``), `run`'s state saves, `merge` sums and every report renders
/// (``HourFigures``). Requests are computed here and nowhere else.
package struct HourCounts: Codable, Equatable, Sendable {
    /// Requests per class: every class the hour was counted under, including classes the
    /// current rules lack (a state counted under other rules): their lines stay counted.
    package var classes: [String: Int64] = [:]
    /// Requests whose UA could not be classified (the match limit).
    package var errors: Int64 = 0
    /// Lines outside the rules' scope: read, not audited.
    package var outOfScope: Int64 = 0
    /// The alert class's UAs (report text) and their counts; bounded by whoever keeps them.
    package var uas: [String: Int64] = [:]
    /// True when some alert-class UAs could not be kept, so ``uas`` may miss some.
    package var uasApproximate = false
    /// Impact, paths, families and clients; absent from states written before uaaudit kept them.
    package var insight: HourInsight?
    /// True when a scan dropped the hour's detail lists to keep memory bounded; not saved.
    package var detailsDropped = false

    enum CodingKeys: String, CodingKey {
        case classes, errors, uas, insight
        case outOfScope = "out_of_scope"
        case uasApproximate = "uas_approximate"
    }

    package init(classes: [String: Int64] = [:], errors: Int64 = 0, outOfScope: Int64 = 0) {
        self.classes = classes
        self.errors = errors
        self.outOfScope = outOfScope
    }

    /// Audited requests: every class plus the UAs that could not be classified.
    package var requests: Int64 { classes.values.reduce(0, +) + errors }

    /// Every line counted in the hour: its requests and the lines out of scope.
    package var lines: Int64 { requests + outOfScope }

    /// The requests of class `name` (0 when the hour has none).
    package subscript(name name: String) -> Int64 { classes[name] ?? 0 }

    /// The named counts of one hour of a scan: every class of the rules (0 when none), errors,
    /// out of scope, the alert-class UAs as report text and the hour's insight.
    package init(_ hour: AuditResult.HourTally, configuration: ScanConfiguration) {
        let rules = configuration.rules
        for (i, name) in rules.classNames.enumerated() { classes[name] = hour.counts[i] }
        errors = hour.counts[rules.classCount]
        outOfScope = hour.counts[rules.classCount + 1]
        for (ua, n) in hour.alertUAs { uas[ReportText.render(ua), default: 0] += n }
        uasApproximate = hour.untrackedAlertUAs > 0
        insight = HourInsight(hour, configuration: configuration)
        detailsDropped = hour.detailsDropped
    }

    /// Adds another part of the same hour (a later run's lines, another report's hour). Returns
    /// false, changing nothing, when a sum would not fit an `Int64`.
    @discardableResult
    package mutating func add(_ other: HourCounts) -> Bool {
        var sum = self
        for (name, n) in other.classes {
            guard let total = Self.sum(sum.classes[name] ?? 0, n) else { return false }
            sum.classes[name] = total
        }
        for (ua, n) in other.uas {
            guard let total = Self.sum(sum.uas[ua] ?? 0, n) else { return false }
            sum.uas[ua] = total
        }
        guard let errors = Self.sum(errors, other.errors), let outOfScope = Self.sum(outOfScope, other.outOfScope)
        else { return false }
        sum.errors = errors
        sum.outOfScope = outOfScope
        // Requests and lines are sums too: they must fit as well, so reading them never traps.
        guard sum.checkedLines != nil else { return false }
        sum.uasApproximate = uasApproximate || other.uasApproximate
        sum.detailsDropped = detailsDropped || other.detailsDropped
        if let theirs = other.insight {
            var mine = insight ?? HourInsight()
            mine.merge(theirs)
            sum.insight = mine
        }
        self = sum
        return true
    }

    /// ``lines``, or nil when the sum does not fit an `Int64`.
    var checkedLines: Int64? {
        var total = outOfScope
        for n in classes.values + [errors] {
            guard let next = Self.sum(total, n) else { return nil }
            total = next
        }
        return total
    }

    private static func sum(_ a: Int64, _ b: Int64) -> Int64? {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : s
    }
}
