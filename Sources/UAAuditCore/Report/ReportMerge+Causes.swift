/// `merge` of the hours' causes: requests and iOS versions add up per family, and the release
/// is judged again from the reports' release figures summed (``ReleaseTallies``), marked
/// approximate since a client seen by two hosts is counted by each.
extension ReportMerge.HourSum {
    mutating func addCauses(_ entry: Report.HourEntry) {
        if let theirs = entry.releases {
            if !lackedReleases {
                if var sum = releases {
                    sum.add(theirs)
                    releases = sum
                } else {
                    releases = theirs
                }
            }
        } else if entry.causes != nil {
            // Causes without release figures: a report without a client key.
            lackedReleases = true
            releases = nil
        }
        for cause in entry.causes ?? [] {
            guard var mine = causes[cause.family] else {
                causes[cause.family] = cause
                continue
            }
            mine.requests += cause.requests
            mine.ios = Array(Set(mine.ios).union(cause.ios)).sorted(by: CauseDetail.versionPrecedes)
            if cause.iosFromDarwinOnly == true { mine.iosFromDarwinOnly = true }
            if ReportMerge.earlier(cause.firstSeen, than: mine.firstSeen) { mine.firstSeen = cause.firstSeen }
            causes[cause.family] = mine
        }
    }

    /// The hour's causes: a single report's as they are, several reports' summed and judged again.
    func fillCauses(_ entry: inout Report.HourEntry, top: Int, alertClass: String) {
        if reports == 1 {
            entry.causes = only?.causes
            entry.releases = only?.releases
            return
        }
        guard !causes.isEmpty else { return }
        var list = causes.values.sorted {
            $0.requests != $1.requests ? $0.requests > $1.requests : $0.family < $1.family
        }
        list = Array(list.prefix(top))
        for i in list.indices {
            if var tallies = releases {
                tallies.approximate = true
                let verdict = ReleaseVerdict.judge(family: list[i].family, tallies: tallies)
                list[i].release = CauseReport.release(verdict, tallies: tallies, family: list[i].family)
                list[i].releaseNote = verdict.note
            } else {
                list[i].release = nil
                list[i].releaseNote = "a report with this hour had no release figures: releases are not judged again"
            }
        }
        entry.causes = list
        if var tallies = releases {
            tallies.approximate = true
            entry.releases = CauseReport.carried(tallies, families: list)
        }
    }
}

extension ReportMerge {
    /// Whether hour text `a` starts before `b` (report hour strings, any offsets).
    static func earlier(_ a: String, than b: String) -> Bool {
        guard let x = HourKey(iso8601: a)?.startInstant, let y = HourKey(iso8601: b)?.startInstant else { return a < b }
        return x < y
    }

    /// Each cause's `first_seen` made the earliest across the merged hours (a report knows only
    /// its own hours).
    static func firstSeenAcrossHours(_ entries: inout [Report.HourEntry]) {
        var first: [String: String] = [:]
        for entry in entries {
            for c in entry.causes ?? [] {
                if let known = first[c.family], !earlier(c.firstSeen, than: known) { continue }
                first[c.family] = c.firstSeen
            }
        }
        for i in entries.indices {
            guard var list = entries[i].causes else { continue }
            for j in list.indices { list[j].firstSeen = first[list[j].family] ?? list[j].firstSeen }
            entries[i].causes = list
        }
    }
}
