import UAAuditAudit

/// What `merge` combines across hosts beyond counts: split clients from the reports' client
/// samples (``FleetClients``), and drift worked out again from their UA families.
extension ReportMerge {
    /// The salt every report with client figures hashed its keys with (nil when none names
    /// one). Reports of different salts cannot be matched client by client: refused. So is a
    /// report that shows client keys in full, among several.
    static func agreedSalt(_ inputs: [Input]) throws(MergeError) -> String? {
        if inputs.count > 1, let shown = inputs.first(where: { $0.report.clientKeysShown == true }) {
            throw .clientKeysShown(path: shown.path)
        }
        var found: (path: String, salt: String)?
        for input in inputs {
            guard input.report.hours.contains(where: { $0.clients?.sample != nil }) else { continue }
            // Samples without the salt they were keyed with cannot be matched with any.
            guard let salt = input.report.clientSalt else {
                throw .unreadable(
                    path: input.path, reason: "is not a valid report: it has client samples but no client_salt")
            }
            if let first = found, first.salt != salt {
                throw .differentSalts(first: first.path, firstSalt: first.salt, other: input.path, otherSalt: salt)
            }
            if found == nil { found = (input.path, salt) }
        }
        return found?.salt
    }

    /// The drift settings of the reports, when they all have the same: drift is then worked
    /// out again over the merged hours. Nil when drift is off in one of them, or they differ
    /// (said in a note).
    static func agreedDrift(_ inputs: [Input], minRequests: Int64, notes: inout [String]) -> DriftPolicy? {
        let settings = inputs.map(\.report.driftSettings)
        guard let first = settings.compactMap({ $0 }).first else { return nil }
        guard settings.allSatisfy({ $0 == first }) else {
            let differing = inputs.first { $0.report.driftSettings != first }!
            notes.append(
                "\(differing.path) has other drift settings than \(inputs[0].path) (or none): drift is not worked "
                    + "out again over the merged hours; an hour found in one report keeps that report's")
            return nil
        }
        return DriftPolicy(first, minRequests: minRequests)
    }

    /// Checks every hour's client sample and families, so that a damaged or forged one is an
    /// error naming the hour, not a figure quietly left out or blown up: a sample must be
    /// valid (``Report/ClientSampleEntry/records()``); a family's classes must be the rules'
    /// classes (or one the hour counted under rules since changed), and its requests of a class,
    /// with the other families', at most the hour's.
    static func checkSamples(_ report: Report, path: String) throws(MergeError) {
        let rules = Set(report.rules.classNames)
        for hour in report.hours {
            let classes = rules.union(hour.classes.keys)
            if let sample = hour.clients?.sample, sample.records() == nil {
                throw .unreadable(
                    path: path,
                    reason: "is not a valid report: hour \(hour.hour) has a client sample that is not base64 of at "
                        + "most \(ClientSet.reportSampleLimit) 9-byte records, by id, each a client its level keeps")
            }
            if let sample = hour.releases, sample.clientRecords() == nil {
                throw .unreadable(
                    path: path,
                    reason: "is not a valid report: hour \(hour.hour) has a release sample that is not base64 of at "
                        + "most \(ReleaseClients.limit) client records, by id, each a client its level keeps")
            }
            var sums: [String: Int64] = [:]
            for family in hour.drift?.families ?? [] {
                for (name, n) in family.classes {
                    guard classes.contains(name) else {
                        throw .unreadable(
                            path: path,
                            reason: "is not a valid report: hour \(hour.hour) has a UA family whose class "
                                + "(\(ReportMerge.step(name))) is not a class of its rules")
                    }
                    sums[name, default: 0] += n  // each at most 2^53 and all under 2^62 (read): no overflow
                    guard sums[name]! <= hour.classes[name] ?? 0 else {
                        throw .unreadable(
                            path: path,
                            reason: "is not a valid report: hour \(hour.hour)'s UA families hold more \(name) "
                                + "requests than the hour")
                    }
                }
            }
        }
    }
}

extension ReportMerge.HourSum {
    mutating func addClients(_ entry: Report.HourEntry) {
        guard let clients = entry.clients else {
            lackedClients = true
            return
        }
        hadClients = true
        if let known = clientKey, known.key != clients.key || known.appClasses != clients.appClasses {
            fleet = nil
        }
        clientKey = (clients.key, clients.appClasses)
        var union = fleet
        fleet = nil  // the one reference while it grows
        guard let sample = clients.sample, union != nil, union!.add(sample, examples: clients.examples) else { return }
        fleet = union
    }

    mutating func addFamilies(_ entry: Report.HourEntry) {
        guard let drift = entry.drift else {
            families = nil
            return
        }
        hadDrift = true
        guard let list = drift.families, families != nil else {
            families = nil
            return
        }
        for family in list {
            for (name, n) in family.classes { families![family.family, default: [:]][name, default: 0] += n }
        }
        familiesApproximate = familiesApproximate || drift.familiesApproximate == true
        familiesDropped = familiesDropped || drift.familiesDropped == true
    }

    /// The split-client figures of the union of the reports' samples; nil when a report had the
    /// hour without a sample, or without client figures while another had them.
    func fleetEntry(classes: [String: Int64], alertClass: String) -> Report.ClientsEntry? {
        guard hadClients, !lackedClients, let fleet, let key = clientKey else { return nil }
        var entry = InsightReport.clientsEntry(
            counts: fleet.counts, classes: classes, key: key.key, appClasses: key.appClasses, alertClass: alertClass,
            examples: fleet.examples)
        entry.sample = fleet.entry
        return entry
    }

    /// The hour's summed families as drift reads them (cut to the most an hour keeps); an
    /// hour a report gave no families for is blind (``HourInsight/familiesDropped``).
    var familyInsight: HourInsight {
        var part = HourInsight()
        part.families = families ?? [:]
        part.familiesApproximate = familiesApproximate
        part.familiesDropped = families == nil || familiesDropped
        var insight = HourInsight()
        insight.merge(part)
        return insight
    }
}
