import UAAuditInput

/// The figures beyond the counts (families, alert-class paths, clients), absorbed from tallies
/// and kept within their bounds.
extension AuditResult {
    mutating func absorbInsight(_ tally: Tally, escape: EscapeMode) {
        if let names = tally.families {
            let counts = tally.familyCounts
            for e in 0..<counts.count {
                let k = counts.key(e)
                let key = tally.hours[Int(k >> 40)]
                let id = UInt32(truncatingIfNeeded: k >> 8)
                let bytes = tally.familyNames?[id] ?? Array(names.key(Int(id)))
                let family = FamilyKey(family: bytes, cls: Int(k & 0xFF))
                hours[key]?.families[family, default: 0] += counts.value(e)
            }
        }
        let paths = tally.alertPaths
        for e in 0..<paths.count {
            let tag = Int(paths.tag(e))
            let key = tally.hours[tag / 2]
            let decoded = PathText.decode(Array(paths.key(e)), escape: escape)
            var entry = hours[key]?.paths[decoded] ?? PathCount()
            entry.count += paths.values[e]
            if tag % 2 == 1 { entry.rejected += paths.values[e] }
            hours[key]?.paths[decoded] = entry
        }
        if let clients = tally.clients {
            // Each bucket's clients come sorted (the worker ran finish(); a tally made by hand
            // is sorted here) and join their hour in one merge.
            clients.finish()
            for bucket in 0..<clients.bucketCount {
                hours[tally.hours[bucket]]?.clients.add(
                    sortedRun: clients.run(of: bucket), level: clients.level(of: bucket))
            }
            if let releases = tally.releases { absorbReleases(releases, of: tally) }
            for (bucket, keys) in clients.examples {
                for raw in keys {
                    hours[tally.hours[bucket]]?.clients.addExample(
                        ReportText.render(Unescape.decode(raw, mode: escape)))
                }
            }
        }
    }

    /// Adds each bucket's release sample to its hour, family ids and version ids made text.
    private mutating func absorbReleases(_ releases: ReleaseSample, of tally: Tally) {
        var familyText: [UInt32: String] = [:]
        func text(_ id: UInt32) -> String? {
            if let known = familyText[id] { return known }
            guard let bytes = tally.familyNames?[id] ?? tally.families.map({ Array($0.key(Int(id))) }) else {
                return nil
            }
            let rendered = ReportText.render(bytes)
            familyText[id] = rendered
            return rendered
        }
        let names = releases.versionNames
        for bucket in 0..<min(releases.bucketCount, tally.hours.count) {
            var clients: [UInt64: ReleaseClients.Client] = [:]
            for e in releases.entries(of: bucket) {
                clients[e.hash] = ReleaseClients.Client(
                    mask: e.mask, versions: ReleaseSample.Entry.ids(e.versions).map { names[Int($0)] }.sorted(),
                    families: ReleaseSample.Entry.ids(e.families).compactMap { text(UInt32($0) - 1) }.sorted())
            }
            hours[tally.hours[bucket]]?.releases.add(
                clients, level: releases.level(of: bucket), approximate: releases.approximate)
        }
    }

    /// The most families and alert-class paths an hour keeps; beyond that the least frequent
    /// are dropped and counted as untracked.
    static let maxFamiliesPerHour = 1_000
    static let maxPathsPerHour = 1_000

    /// The most client entries all hours of a result keep together (each hour also at most
    /// ``ClientSet/maxEntries``): past it, the hour with the most is sampled more coarsely.
    static let clientBudget = 262_144

    mutating func keepClientsWithinBudget() {
        var total = 0
        var heap = HourHeap()
        for (key, hour) in hours where !hour.clients.masks.isEmpty {
            total += hour.clients.masks.count
            heap.items.append((hour.clients.masks.count, key))
        }
        guard total > AuditResult.clientBudget else { return }
        // The hour with the most entries (ties: the earliest) is sampled one level coarser,
        // again and again: a heap, not a pass over every hour per step (quadratic in hours).
        heap.build()
        while total > AuditResult.clientBudget, let (count, key) = heap.pop() {
            guard var clients = hours[key]?.clients else { continue }
            clients.sample(atLevel: clients.level + 1)
            total -= count - clients.masks.count
            hours[key]?.clients = clients
            if !clients.masks.isEmpty { heap.push((clients.masks.count, key)) }
        }
    }

    /// Keeps the detail lists of the newest ``detailHours`` hours, and of every hour the alert
    /// policy keeps besides: the older hours lose theirs (their counts, shares and
    /// client figures stay). An hour that lost its lists keeps none of what later input adds.
    mutating func keepDetailsWithinBound(touched: [HourKey]) {
        for key in touched where hours[key]?.detailsDropped == true { hours[key]?.dropDetails() }
        var withDetails = 0
        for hour in hours.values where !hour.detailsDropped { withDetails += 1 }
        guard withDetails > detailHours else { return }
        let droppable = hours.filter { !$0.value.detailsDropped && !keepsDetails($0.value) }.keys.sorted()
        for key in droppable.prefix(max(0, droppable.count - detailHours)) { hours[key]?.dropDetails() }
    }

    mutating func trimInsight(of key: HourKey) {
        guard var hour = hours[key] else { return }
        if hour.families.count > AuditResult.maxFamiliesPerHour {
            // By count, then by bytes (CONTRACTS: every trimmed list), so ties are cut the same way in every run.
            let sorted = hour.families.sorted {
                $0.value != $1.value
                    ? $0.value > $1.value
                    : $0.key.family != $1.key.family
                        ? $0.key.family.lexicographicallyPrecedes($1.key.family) : $0.key.cls < $1.key.cls
            }
            let kept = sorted.prefix(AuditResult.maxFamiliesPerHour / 2)
            hour.untrackedFamilies += sorted.dropFirst(kept.count).reduce(0) { $0 + $1.value }
            hour.families = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        if hour.paths.count > AuditResult.maxPathsPerHour {
            hour.untrackedPaths += AuditResult.keepTop(&hour.paths, AuditResult.maxPathsPerHour / 2) { $0.count }
        }
        hours[key] = hour
    }
}

extension AuditResult.HourTally {
    /// How many alert-class UAs and paths an hour keeps once its detail lists are dropped, so
    /// that an hour found over the threshold only later (another input adds to it) still
    /// shows its top UAs and paths, marked approximate.
    static let keptAfterDrop = 20

    /// Cuts the detail lists to the most frequent few UAs and paths and forgets the families,
    /// counting the rest as untracked.
    mutating func dropDetails() {
        detailsDropped = true
        untrackedAlertUAs += AuditResult.keepTop(&alertUAs, Self.keptAfterDrop) { $0 }
        untrackedPaths += AuditResult.keepTop(&paths, Self.keptAfterDrop) { $0.count }
        untrackedFamilies += families.values.reduce(0, +)
        families = [:]
        releases = ReleaseClients()
    }
}

/// A max-heap of (entries, hour): most entries first, then the earliest hour.
private struct HourHeap {
    var items: [(count: Int, key: HourKey)] = []

    private static func above(_ a: (count: Int, key: HourKey), _ b: (count: Int, key: HourKey)) -> Bool {
        a.count != b.count ? a.count > b.count : a.key < b.key
    }

    mutating func build() {
        var i = items.count / 2
        while i > 0 {
            i -= 1
            down(i)
        }
    }

    mutating func push(_ item: (count: Int, key: HourKey)) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.above(items[i], items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (count: Int, key: HourKey)? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            down(0)
        }
        return first
    }

    private mutating func down(_ start: Int) {
        var i = start
        while true {
            var best = i
            for child in [2 * i + 1, 2 * i + 2] where child < items.count && Self.above(items[child], items[best]) {
                best = child
            }
            if best == i { return }
            items.swapAt(i, best)
            i = best
        }
    }
}
