import UAAuditAudit
import UAAuditInput

/// `merge` of the hours' causes: requests and iOS versions add up per family, and the release
/// is judged again from the union of the reports' release samples (``ReleaseUnion``): a client
/// on two hosts is one client, so the merge of a log's halves judges as the whole does.
extension ReportMerge.HourSum {
    /// Adds a report's hour (its release sample checked by ``ReportMerge/checkSamples(_:path:)``).
    mutating func addCauses(_ entry: Report.HourEntry) {
        if let theirs = entry.releases {
            hadReleases = true
            releases?.add(theirs.clientRecords() ?? [:], level: theirs.level, approximate: theirs.approximate == true)
        } else if entry.causes != nil {
            // Causes without a release sample: a report without a client key, or a closed
            // run hour of a state that kept only its figures.
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

    /// The hour's causes: a single report's as they are, several reports' added and judged again.
    func fillCauses(_ entry: inout Report.HourEntry, top: Int) {
        if reports == 1 {
            entry.causes = only?.causes
            entry.releases = only?.releases
            return
        }
        if hadReleases, let releases { entry.releases = releases.entry }
        guard !causes.isEmpty else { return }
        var list = causes.values.sorted {
            $0.requests != $1.requests ? $0.requests > $1.requests : $0.family < $1.family
        }
        list = Array(list.prefix(top))
        let tallies = hadReleases ? releases?.tallies : nil
        for i in list.indices {
            if let tallies {
                let verdict = ReleaseVerdict.judge(family: list[i].family, tallies: tallies)
                list[i].release = CauseReport.release(verdict, tallies: tallies, family: list[i].family)
                list[i].releaseNote = verdict.note
            } else if hadReleases {
                list[i].release = nil
                list[i].releaseNote =
                    "a report with this hour has no release sample (no client key, or made before uaaudit kept one): "
                    + "releases are not judged again"
            }
            // No report had a sample (no client key): the reports' own note stands.
        }
        entry.causes = list
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
