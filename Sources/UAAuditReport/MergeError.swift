/// Why reports could not be read or merged; each message names the files and the values.
package enum MergeError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read, or is not a uaaudit report this version reads.
    case unreadable(path: String, reason: String)
    /// An hour that is not in the report's form (`2026-11-29T17:00:00+08:00`).
    case badHour(path: String, hour: String)
    /// Two reports were made with different rules, so their classes do not mean the same.
    case differentRules(first: String, other: String, difference: String)
    /// The reports' thresholds or minimum requests differ and no option chose one.
    case differentPolicy(setting: String, first: String, firstValue: String, other: String, otherValue: String)
    /// A report's threshold is not a decimal fraction uaaudit can compare exactly.
    /// Two reports counted some of the same lines: merged, they would count them twice.
    case overlapping(first: String, other: String, why: String)
    case noReports
    /// Two reports hashed client keys with different salts: their clients cannot be matched.
    case differentSalts(first: String, firstSalt: String, other: String, otherSalt: String)
    /// A report shows client keys in full (`--show-client-keys`), among several merged.
    case clientKeysShown(path: String)
    /// The reports' counts add up to more than ``ReportMerge/maxMass``: a sum could overflow.
    case tooLarge(paths: [String])

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): \(reason)"
        case .badHour(let path, let hour):
            return "\(path): hour '\(hour)' is not of the form 2026-11-29T17:00:00+08:00"
        case .differentRules(let first, let other, let difference):
            return
                "\(first) and \(other) were made with different rules (\(difference)); only reports of the same rules can be merged"
        case .differentPolicy(let setting, let first, let firstValue, let other, let otherValue):
            return
                "\(first) has \(setting) \(firstValue) but \(other) has \(otherValue); give --\(setting.replacingUnderscores) to choose the merged report's"
        case .overlapping(let first, let other, let why):
            return
                "\(first) and \(other) overlap: \(why); merging them would count those lines twice (nothing was written)"
        case .noReports:
            return "no reports to merge"
        case .differentSalts(let first, let firstSalt, let other, let otherSalt):
            return
                "\(first) hashed client keys with salt \(firstSalt) but \(other) with \(otherSalt): their clients cannot be matched; give every host the same --client-salt-file (config client_salt_file) and make the reports again (nothing was written)"
        case .clientKeysShown(let path):
            return
                "\(path) shows client keys in full (--show-client-keys): merge combines only reports whose keys are hashed; make it again without --show-client-keys (nothing was written)"
        case .tooLarge(let paths):
            return
                "the counts of the \(paths.count) reports add up to more than 2^62, more than uaaudit can add; merge fewer reports at once (nothing was written)"
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
