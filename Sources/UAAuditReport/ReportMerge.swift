import FoundationEssentials
import UAAuditAudit
import UAAuditInput

/// Combines reports (from many hosts, or from scans of parts of one log) into one report of
/// the same schema.
///
/// - Counts add up per hour; shares, breaches, totals and alert hours are recomputed from the
///   sums (breaches with ``Threshold``'s exact integer comparison), never averaged.
/// - Hours are keyed as the scan keys them: the local hour and its UTC offset. The same hour
///   at the same offset from two reports is one bucket; the same instant logged at two offsets
///   stays two buckets, side by side (ordered by instant, then offset), exactly as one scan of
///   both logs would count them. So merging the reports of two parts of a log gives the report
///   of the whole log.
/// - Top lists are summed per UA and cut to `top`. When an hour comes from several reports and
///   one of them listed fewer UAs than the hour's alert-class requests (its list was cut), a
///   UA's merged count may be short, and the hour's `top_approximate` is set; it is also set
///   when any input's was.
/// - The rules must be identical (``MergeError/differentRules``). The threshold and
///   `min_requests` must agree unless ``Options`` chooses them. Log formats may differ (hosts
///   may log differently): the merged report carries the first input's, and a note says so.
/// - `sources`, `malformed_samples` (up to `sampleLimit`) and `gaps` are the inputs', in order.
/// - The merged report lists the ids it was made from in `merged_from`, and has its own
///   `report_id`. Whether the inputs overlap is ``ReportIdentity/overlap(_:)``'s to say.
///   Run reports' `closed` holds when every input closed the hour; `late` adds up.
package enum ReportMerge {
    package struct Input: Sendable {
        var path: String
        var report: Report
        /// The sum of the report's counts (``load(path:)``): the inputs' together must stay
        /// under ``maxMass`` so that no sum of theirs can overflow.
        var mass: Int64

        init(path: String, report: Report, mass: Int64 = 0) {
            self.path = path
            self.report = report
            self.mass = mass
        }

        /// The report at `path`, read as ``ReportMerge/load(path:)`` reads it.
        package init(path: String) throws(MergeError) {
            let (report, mass) = try ReportMerge.read(path: path)
            self.init(path: path, report: report, mass: mass)
        }
    }

    /// The largest number a report may hold: JSON's largest exact integer (2^53). Counts come
    /// from files anyone can edit; a bigger or negative one would trap an Int64 sum.
    static let maxCount: Double = 9_007_199_254_740_992
    /// The most the counts of all reports merged at once may add up to (2^62): no sum of some
    /// of them, the merged report's totals included, can overflow.
    static let maxMass: Int64 = 1 << 62

    package struct Options: Sendable {
        /// The merged report's threshold; nil: the inputs' (they must agree).
        var threshold: Threshold?
        /// The merged report's `min_requests`; nil: the inputs' (they must agree).
        var minRequests: Int64?
        /// Alert-class UAs listed per hour.
        var top: Int
        var sampleLimit: Int
        var generatedAt: String

        package init(
            threshold: Threshold? = nil, minRequests: Int64? = nil, top: Int = Settings.top.defaultInt,
            sampleLimit: Int = 10,
            generatedAt: String
        ) {
            self.threshold = threshold
            self.minRequests = minRequests
            self.top = top
            self.sampleLimit = sampleLimit
            self.generatedAt = generatedAt
        }
    }

    package struct Outcome: Sendable {
        package var report: Report
        /// Things the reader should know that are not errors (differing log formats).
        package var notes: [String]
    }

    /// Reads a report file; anything but a `uaaudit.report/1` report is an error, and so is one
    /// holding a negative number or one over ``maxCount``, or counts adding up to over ``maxMass``.
    package static func load(path: String) throws(MergeError) -> Report {
        try read(path: path).report
    }

    static func read(path: String) throws(MergeError) -> (report: Report, mass: Int64) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.readAll(path: path, limit: 256 << 20)
        } catch {
            throw .unreadable(path: path, reason: "cannot read: \(error.reason)")
        }
        // One parse, which the numbers are checked on and the report is decoded from. A key
        // given twice is refused: the parse keeps one value of two, and other tools the other.
        var duplicate: String?
        let json: JSONValue
        do throws(JSONValue.SyntaxError) {
            json = try JSONValue.parse(bytes, firstDuplicate: &duplicate)
        } catch {
            throw .unreadable(path: path, reason: "is not JSON: \(JSONErrors.describe(error, in: bytes))")
        }
        if let duplicate {
            throw .unreadable(path: path, reason: "is not a valid report: \(DuplicateKeys.message(duplicate))")
        }
        // Numbers first: a count an Int64 cannot hold is named where it is, not as what the
        // decoder makes of it; and the counts together must stay under maxMass.
        var mass: Int64 = 0
        if let found = outOfRange(json, mass: &mass) {
            let place = found.at.isEmpty ? "the top level" : found.at.reversed().joined()
            throw .unreadable(
                path: path,
                reason: found.number.isEmpty
                    ? "is not a valid report: its counts add up to more than 2^62"
                    : "is not a valid report: \(place) is \(found.number), not a count from 0 to 2^53")
        }
        // Then, in the order that helps: not an object, another schema, what the decoder found.
        guard let object = json.object, object["schema"].map({ $0 == .null || $0.string != nil }) ?? true else {
            throw .unreadable(path: path, reason: "is not a JSON object (truncated or not a report?)")
        }
        guard object["schema"]?.string == Report.schemaID else {
            throw .unreadable(
                path: path,
                reason: "schema is \(object["schema"]?.string.map { "'\($0)'" } ?? "missing"), not \(Report.schemaID)")
        }
        let report: Report
        do {
            report = try ReportEncoding.decode(json)
        } catch {
            throw .unreadable(path: path, reason: "is not a valid report: \(JSONErrors.describe(error))")
        }
        try checkClasses(report, path: path)
        try checkSamples(report, path: path)
        return (report, mass)
    }

    /// Checks every hour's classes: a class its rules lack (one a `run` counted under rules since
    /// changed) must be named as a rules file may name one, and the classes with the errors must
    /// add up to the hour's requests, so that a forged class neither reaches a terminal nor
    /// adds requests no report counted.
    static func checkClasses(_ report: Report, path: String) throws(MergeError) {
        let rules = Set(report.rules.classNames)
        for hour in report.hours {
            for name in hour.classes.keys where !rules.contains(name) {
                guard RuleSet.isCountable(name) else {
                    throw .unreadable(
                        path: path,
                        reason: "is not a valid report: hour \(hour.hour) has a class (\(step(name))) that no rules "
                            + "file can name")
                }
            }
            // Each at most 2^53 and all under 2^62 (read): no overflow.
            let sum = HourCounts(hour).requests
            guard sum == hour.requests else {
                throw .unreadable(
                    path: path,
                    reason: "is not a valid report: hour \(hour.hour) has classes and errors that add up to \(sum), "
                        + "not its \(hour.requests) requests")
            }
        }
    }

    /// What a number as written counts for: its value rounded up, or nil when it is negative,
    /// over ``maxCount`` or not a number. A whole number is read exactly (a Double would take
    /// 2^53 + 1 for 2^53); any other must be under 2^53 (`9007199254740992.0` decodes as an
    /// integer too).
    static func count(_ text: String) -> Int64? {
        if let whole = Int64(text) { return whole >= 0 && whole <= Int64(maxCount) ? whole : nil }
        guard let v = Double(text), v >= 0, v < maxCount else { return nil }
        return Int64(v.rounded(.up))
    }

    /// The first number in `value` that ``count(_:)`` refuses (where it is, innermost first,
    /// and how it is written), adding what the others count for to `mass`; ([], "") once
    /// `mass` passes ``maxMass``; nil when all are in range.
    static func outOfRange(_ value: JSONValue, mass: inout Int64) -> (at: [String], number: String)? {
        switch value {
        case .number(let text):
            guard let n = count(text) else { return ([], text) }
            mass += n
            return mass > maxMass ? ([], "") : nil
        case .array(let items):
            for (i, item) in items.enumerated() {
                if let found = outOfRange(item, mass: &mass) { return (found.at + ["[\(i)]"], found.number) }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = outOfRange(members[key]!, mass: &mass) { return (found.at + [step(key)], found.number) }
            }
            return nil
        default:
            return nil
        }
    }

    /// `.key`, or `["key"]` with its control characters, quotes and backslashes escaped when it
    /// is anything but letters, digits, `_` and `-` (a key comes from the file: it must not
    /// forge a line of the message).
    static func step(_ key: String) -> String {
        if !key.isEmpty,
            key.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
            })
        {
            return "." + key
        }
        var out = "[\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || !scalar.isASCII && scalar.properties.generalCategory == .format
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\"]"
    }

    package static func merge(_ inputs: [Input], options: Options) throws(MergeError) -> Outcome {
        guard let first = inputs.first else { throw .noReports }
        var mass: Int64 = 0
        for input in inputs {
            mass += input.mass  // each at most maxMass: no overflow before the check
            if mass > maxMass { throw .tooLarge(paths: inputs.map(\.path)) }
        }
        let rules = first.report.rules
        for input in inputs.dropFirst() where input.report.rules != rules {
            throw .differentRules(
                first: first.path, other: input.path, difference: difference(rules, input.report.rules))
        }
        let threshold: Threshold
        if let chosen = options.threshold { threshold = chosen } else { threshold = try agreedThreshold(inputs) }
        let minRequests: Int64
        if let chosen = options.minRequests {
            minRequests = chosen
        } else {
            minRequests = try agreedMinRequests(inputs)
        }
        var notes: [String] = []
        if inputs.contains(where: { $0.report.format != first.report.format }) {
            let names = inputs.map { "\($0.path): \($0.report.format.name ?? $0.report.format.string)" }
            notes.append(
                "the reports were made from different log formats (\(names.joined(separator: ", "))); "
                    + "the merged report names the first one's")
        }

        let salt = try agreedSalt(inputs)
        let noted = notes.count
        let driftPolicy = agreedDrift(inputs, minRequests: minRequests, notes: &notes)
        let driftSettingsDiffer = notes.count > noted

        var hours: [HourKey: HourSum] = [:]
        var driftAlerts = false
        for input in inputs {
            if input.report.totals.driftAlertHours != nil { driftAlerts = true }
            for entry in input.report.hours {
                guard let key = HourKey(iso8601: entry.hour) else {
                    throw .badHour(path: input.path, hour: entry.hour)
                }
                // Each count at most 2^53 and all under 2^62 (read): a sum that does not fit
                // is a bug, refused rather than trapped or dropped.
                guard hours[key, default: HourSum()].add(entry, alertClass: rules.alertClass) else {
                    throw .tooLarge(paths: inputs.map(\.path))
                }
            }
        }
        let names = rules.classNames
        var entries: [Report.HourEntry] = []
        var driftInputs: [InsightReport.HourInput] = []
        var uncombined = false
        for key in hours.keys.sorted() {
            let sum = hours[key]!
            var counts = sum.counts
            counts.uasApproximate = counts.uasApproximate || (sum.reports > 1 && sum.cutLists > 0)
            var entry = HourFigures.entry(
                hour: key, counts: counts, classNames: names, alertClass: rules.alertClass, limit: options.top
            ) {
                AlertPolicy.alerts(
                    alertCount: $0, requests: $1, threshold: threshold, minRequests: minRequests, closed: sum.closed)
            }
            entry.closed = sum.closed
            entry.late = sum.late
            sum.fillInsight(&entry, top: options.top, minRequests: minRequests, rules: rules)
            if sum.reports > 1, sum.hadClients, entry.clients == nil { uncombined = true }
            if let driftPolicy {
                if sum.reports > 1, sum.families == nil { uncombined = true }
                counts.insight = sum.familyInsight
                driftInputs.append(InsightReport.HourInput(key: key, counts: counts))
            } else if sum.reports > 1, sum.hadDrift, !driftSettingsDiffer {
                uncombined = true
            }
            entries.append(entry)
        }
        ReportMerge.firstSeenAcrossHours(&entries)
        if let driftPolicy {
            for i in entries.indices {
                var drift = InsightReport.drift(at: i, in: driftInputs, policy: driftPolicy)
                drift.carry(driftInputs[i].insight)
                // A run's open hour alerts for nothing yet (as in its own report).
                if entries[i].closed == false { drift.alert = false }
                entries[i].drift = drift
            }
        }
        if uncombined {
            notes.append(
                "split clients or UA drift of some hours found in more than one report could not be combined "
                    + "(a report made before uaaudit kept client samples and UA families, or without a client key): "
                    + "those hours have none in the merged report")
        }
        let gaps = inputs.compactMap(\.report.gaps)
        var report = Report(
            generatedAt: options.generatedAt,
            sources: inputs.flatMap(\.report.sources),
            format: first.report.format, rules: rules, threshold: threshold, minRequests: minRequests,
            totals: HourFigures.totals(
                of: entries, classNames: names, alertClass: rules.alertClass,
                malformed: inputs.reduce(0) { $0 + $1.report.totals.malformed }, driftAlerts: driftAlerts),
            hours: entries,
            malformedSamples: Array(inputs.flatMap(\.report.malformedSamples).prefix(options.sampleLimit)),
            gaps: gaps.isEmpty ? nil : gaps.flatMap { $0 })
        let mergedFrom = inputs.map { ReportIdentity.id(of: $0.report) }
        report.mergedFrom = mergedFrom
        let runHours = inputs.flatMap { ReportIdentity.runHours($0.report) }
        report.mergedRunOf = runHours.isEmpty ? nil : runHours
        report.clientSalt = salt
        // A report showing keys stays one, merged alone: its keys must not pass as hashed.
        if inputs.contains(where: { $0.report.clientKeysShown == true }) { report.clientKeysShown = true }
        report.driftSettings = driftPolicy?.entry
        report.reportID = ReportIdentity.mergedID(
            mergedFrom: mergedFrom, threshold: report.threshold.value, minRequests: minRequests, top: options.top)
        return Outcome(report: report, notes: notes)
    }

    /// One hour's sums over the reports that have it.
    struct HourSum {
        /// The reports' classes, errors, out of scope and top UAs, summed.
        var counts = HourCounts()
        /// How many reports had the hour, and how many of those listed fewer UAs than it had.
        var reports = 0
        var cutLists = 0
        var closed: Bool?
        var late: Int64?
        var impact: [String: StatusCounts]?
        var paths: [String: PathCount]?
        var pathsApproximate = false
        var longestPathList = 0
        /// The entry of the only report with this hour, whose clients and drift are kept.
        var only: Report.HourEntry?
        /// True when some report had clients or drift for the hour.
        var perReport = false
        /// Requests classed `other` per family, from each report's listed families.
        var otherFamilies: [String: Int64] = [:]
        var coverageApproximate = false
        /// The union of the reports' client samples; nil once a report with the hour had
        /// clients without a sample (or with another key), or none.
        var fleet: FleetClients? = FleetClients()
        var clientKey: (key: String, appClasses: [String])?
        var hadClients = false
        var lackedClients = false
        /// The reports' families summed; nil once a report with the hour had none to give.
        var families: [String: [String: Int64]]? = [:]
        var familiesApproximate = false
        var familiesDropped = false
        var hadDrift = false
        /// The reports' causes per family (see ``addCauses(_:)``).
        var causes: [String: Report.CauseEntry] = [:]
        /// The union of the reports' release samples; nil once a report with causes had none.
        var releases: ReleaseUnion? = ReleaseUnion()
        var hadReleases = false
        var lackedReleases = false

        /// Adds a report's hour; false, adding nothing, when its counts would overflow the sums.
        mutating func add(_ entry: Report.HourEntry, alertClass: String) -> Bool {
            guard counts.add(HourCounts(entry)) else { return false }
            only = reports == 0 ? entry : nil
            perReport = perReport || entry.clients != nil || entry.drift != nil
            addClients(entry)
            addFamilies(entry)
            addCauses(entry)
            if let theirs = entry.impact {
                var mine = impact ?? [:]
                for (name, c) in theirs { mine[name, default: StatusCounts()].add(c) }
                impact = mine
            }
            if let list = entry.topPaths {
                var mine = paths ?? [:]
                for p in list {
                    mine[p.path, default: PathCount()].count += p.count
                    mine[p.path, default: PathCount()].rejected += p.rejected
                }
                paths = mine
                longestPathList = max(longestPathList, list.count)
            }
            pathsApproximate = pathsApproximate || entry.topPathsApproximate == true
            if let coverage = entry.coverage {
                for f in coverage.otherFamilies { otherFamilies[f.family, default: 0] += f.count }
                // A report lists only its largest families: the sum may miss some.
                coverageApproximate =
                    coverageApproximate || coverage.approximate || coverage.otherFamilies.count >= Coverage.listed
            }
            reports += 1
            if entry.top.reduce(0, { $0 + $1.count }) < entry.classes[alertClass] ?? 0 { cutLists += 1 }
            if let c = entry.closed { closed = (closed ?? true) && c }
            if let l = entry.late { late = (late ?? 0) + l }
            return true
        }

        /// Impact, paths and coverage add up; clients and drift are kept only from a single report.
        func fillInsight(_ entry: inout Report.HourEntry, top: Int, minRequests: Int64, rules: RulesSummary) {
            entry.impact = impact
            if let paths {
                entry.topPaths = paths.sorted {
                    $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
                }.prefix(top).map { Report.PathEntry(path: $0.key, count: $0.value.count, rejected: $0.value.rejected) }
                entry.topPathsApproximate = pathsApproximate || (reports > 1 && longestPathList >= top)
            }
            entry.clients =
                reports == 1 ? only?.clients : fleetEntry(classes: entry.classes, alertClass: rules.alertClass)
            entry.drift = only?.drift
            fillCauses(&entry, top: top)
            entry.coverage =
                only?.coverage
                ?? Coverage.entry(
                    other: otherFamilies, approximate: coverageApproximate, requests: entry.requests,
                    minRequests: minRequests, rules: rules)
        }
    }

    /// What differs between two rule sets, in a few words.
    static func difference(_ a: RulesSummary, _ b: RulesSummary) -> String {
        if a.order != b.order {
            return "classes \(a.order.joined(separator: ", ")) vs \(b.order.joined(separator: ", "))"
        }
        if a.alertClass != b.alertClass { return "alert class \(a.alertClass) vs \(b.alertClass)" }
        if a.scope != b.scope { return "scope \(a.scope ?? "none") vs \(b.scope ?? "none")" }
        let changed = a.order.filter { a.patterns[$0] != b.patterns[$0] }
        return "patterns of \(changed.joined(separator: ", "))"
    }

    static func agreedThreshold(_ inputs: [Input]) throws(MergeError) -> Threshold {
        let first = inputs[0]
        if let other = inputs.first(where: { $0.report.threshold != first.report.threshold }) {
            throw .differentPolicy(
                setting: "threshold", first: first.path, firstValue: "\(first.report.threshold)", other: other.path,
                otherValue: "\(other.report.threshold)")
        }
        return first.report.threshold
    }

    static func agreedMinRequests(_ inputs: [Input]) throws(MergeError) -> Int64 {
        let first = inputs[0]
        if let other = inputs.first(where: { $0.report.minRequests != first.report.minRequests }) {
            throw .differentPolicy(
                setting: "min_requests", first: first.path, firstValue: "\(first.report.minRequests)",
                other: other.path, otherValue: "\(other.report.minRequests)")
        }
        return first.report.minRequests
    }
}
