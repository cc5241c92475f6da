/// The figures beyond the counts (families, alert-class paths, clients), absorbed from tallies
/// and kept within their bounds.
extension AuditResult {
    mutating func absorbInsight(_ tally: Tally, escape: EscapeMode) {
        if let names = tally.families {
            let counts = tally.familyCounts
            for e in 0..<counts.count {
                let k = counts.key(e)
                let key = tally.hours[Int(k >> 40)]
                let family = FamilyKey(family: Array(names.key(Int((k >> 8) & 0xFFFF_FFFF))), cls: Int(k & 0xFF))
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
            clients.forEachEntry { bucket, hash, mask in
                hours[tally.hours[bucket]]?.clients.add(hash: hash, mask: mask, level: clients.level(of: bucket))
            }
            for bucket in 0..<clients.bucketCount {
                hours[tally.hours[bucket]]?.clients.sample(atLevel: clients.level(of: bucket))
            }
            for (bucket, keys) in clients.examples {
                for raw in keys {
                    hours[tally.hours[bucket]]?.clients.addExample(
                        ReportText.render(Unescape.decode(raw, mode: escape)))
                }
            }
        }
    }

    /// The most families and alert-class paths an hour keeps; beyond that the least frequent
    /// are dropped and counted as untracked.
    public static let maxFamiliesPerHour = 1_000
    public static let maxPathsPerHour = 1_000

    /// The most client entries all hours of a result keep together (each hour also at most
    /// ``ClientSet/maxEntries``): past it, the hour with the most is sampled more coarsely.
    public static let clientBudget = 262_144

    mutating func keepClientsWithinBudget() {
        var total = hours.values.reduce(0) { $0 + $1.clients.masks.count }
        // Ties go to the earliest hour, so the result never depends on the dictionary's order.
        while total > AuditResult.clientBudget,
            let (key, hour) = hours.max(by: {
                let (a, b) = ($0.value.clients.masks.count, $1.value.clients.masks.count)
                return a != b ? a < b : $0.key > $1.key
            })
        {
            var clients = hour.clients
            clients.sample(atLevel: clients.level + 1)
            total -= hour.clients.masks.count - clients.masks.count
            hours[key]?.clients = clients
        }
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
            let sorted = hour.paths.sorted {
                $0.value.count != $1.value.count
                    ? $0.value.count > $1.value.count : $0.key.lexicographicallyPrecedes($1.key)
            }
            let kept = sorted.prefix(AuditResult.maxPathsPerHour / 2)
            hour.untrackedPaths += sorted.dropFirst(kept.count).reduce(0) { $0 + $1.value.count }
            hour.paths = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        hours[key] = hour
    }
}
