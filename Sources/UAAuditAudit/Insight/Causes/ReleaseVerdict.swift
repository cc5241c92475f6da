/// Which app release sends an inconsistent family, from an hour's ``ReleaseTallies``: the app
/// versions of the family's split clients (clients that sent it and the app's own UA, which
/// names the version) against the versions of all the app's clients.
///
/// Only clients whose app UAs named one version are read (``ReleaseTallies``): a key with
/// several is a shared address. A release is named only when it **clearly** stands out: its
/// share of the family's split clients is at least ``minLift`` times its share of all app
/// clients and at least ``minShareOfSplit``, and a binomial test of that excess gives z ≥ ``minZ`` (the family's split clients drawn at random from the app's
/// clients would put fewer on it). So a client key shared by many devices (NAT, carrier-grade
/// NAT: several app versions behind one address) does not make a release look guilty: such a
/// key's versions are the whole population's, and no release stands out. When several
/// releases stand out (3.3.0 and 3.3.1 both send it), the oldest is named: the one that
/// introduced it. The consistent release is the most used one that does not stand out.
package struct ReleaseVerdict: Equatable, Sendable {
    package struct Side: Equatable, Sendable {
        package var version: String
        /// Sampled split clients of the family on the version.
        package var splitClients: Int64
        /// Sampled app clients on the version.
        package var clients: Int64
    }

    package var release: Side?
    package var consistent: Side?
    /// `high` (z ≥ 5 and at least 30 split clients sampled) or `medium`; nil with no release.
    package var confidence: String?
    /// Why no release is named, when none is.
    package var note: String?

    static let minLift = 2.0
    /// The least share of the family's split clients a named release has: a rare release that
    /// only a few split clients are on is not the one that sends it.
    static let minShareOfSplit = 0.2
    static let minZ = 3.0
    /// The fewest sampled split clients a release is named from.
    static let minSplitClients: Int64 = 3

    /// The verdict for `family` in `tallies`.
    package static func judge(family: String, tallies: ReleaseTallies) -> ReleaseVerdict {
        var verdict = ReleaseVerdict()
        let f = tallies.families[family] ?? ReleaseTallies.Family()
        let split = f.splitClients
        let app = tallies.appClients
        let versioned = f.versions.values.contains { $0 > 0 }
        guard split > 0 else {
            verdict.note =
                tallies.approximate
                ? "the sample's bounds were reached (a flood of app versions or families): no split client to judge"
                : tallies.level > 0
                    ? "no split client of this family in the sample (1 in \(1 << min(tallies.level, 62)) clients)"
                    : "no client that sent this family sent the app's own UA with one version"
            return verdict
        }
        guard !tallies.versions.isEmpty, versioned else {
            verdict.note =
                tallies.approximate
                ? "the app versions did not fit the sample's bounds (a flood of versions)"
                : "the app's own UAs name no version"
            return verdict
        }
        guard split >= minSplitClients else {
            verdict.note = "too few split clients (\(split) sampled) to tell a release"
            return verdict
        }
        var standing: [(side: Side, z: Double)] = []
        var others: [Side] = []
        for (version, a) in tallies.versions where a > 0 {
            let s = f.versions[version] ?? 0
            let side = Side(version: version, splitClients: s, clients: a)
            let pAll = Double(a) / Double(max(app, 1))
            let pFamily = Double(s) / Double(split)
            if pAll >= 1 {
                others.append(side)
                continue
            }
            let z = (Double(s) - Double(split) * pAll) / (Double(split) * pAll * (1 - pAll)).squareRoot()
            if pFamily >= minLift * pAll, pFamily >= minShareOfSplit, z >= minZ {
                standing.append((side, z))
            } else {
                others.append(side)
            }
        }
        guard
            let named = standing.min(by: {
                $0.side.version != $1.side.version
                    ? CauseDetail.versionPrecedes($0.side.version, $1.side.version) : false
            })
        else {
            verdict.note =
                tallies.versions.count == 1
                ? "every app client is on \(tallies.versions.keys.first ?? ""): no other release to compare with"
                : "no release stands out among the split clients (a shared client key, or every release)"
            return verdict
        }
        verdict.release = named.side
        verdict.confidence = named.z >= 5 && split >= 30 ? "high" : "medium"
        let standingVersions = Set(standing.map(\.side.version))
        verdict.consistent = others.filter { !standingVersions.contains($0.version) }.max {
            $0.clients != $1.clients ? $0.clients < $1.clients : CauseDetail.versionPrecedes($1.version, $0.version)
        }
        return verdict
    }
}
