/// One hour's sample of clients with the app versions their app-class UAs named and the
/// alert-class UA families they sent (see ``ReleaseSample``, its per-stretch half), merged across
/// chunks, inputs and `run`s: what tells which app release sends an inconsistent family
/// (``ReleaseVerdict``).
///
/// A hash-threshold sample of at most ``limit`` clients, like the split-client figures': a
/// client is kept at level L when its hash starts with L zero bits, so the union of two samples
/// at the coarser level is a sample of the union. A closed `run` hour keeps only its
/// ``ReleaseTallies`` (``freeze()``): its clients are not needed to deduplicate any more.
package struct ReleaseClients: Equatable, Sendable {
    package static let limit = ReleaseSample.limit

    package struct Client: Equatable, Sendable {
        /// ``ClientSample``'s kind bits.
        package var mask: UInt8
        /// App versions (sorted), at most ``ReleaseSample/versionsPerClient``.
        package var versions: [String]
        /// Alert-class families (report text, sorted), at most ``ReleaseSample/familiesPerClient``.
        package var families: [String]

        package init(mask: UInt8, versions: [String] = [], families: [String] = []) {
            self.mask = mask
            self.versions = versions
            self.families = families
        }
    }

    package private(set) var level = 0
    package private(set) var clients: [UInt64: Client] = [:]
    package private(set) var approximate = false
    /// A closed hour's figures, whose clients are no longer kept.
    package private(set) var frozen: ReleaseTallies?

    package init() {}

    /// Adds the clients of one bucket of a stretch, sampled there at `level`.
    package mutating func add(_ theirs: [UInt64: Client], level theirLevel: Int, approximate cut: Bool) {
        if cut { approximate = true }
        if let frozen {
            // A closed hour: the new clients can only be added as figures.
            var part = ReleaseClients()
            part.add(theirs, level: theirLevel, approximate: cut)
            var sum = frozen
            sum.add(part.tallies)
            self.frozen = sum
            return
        }
        if theirLevel > level { raise(to: theirLevel) }
        clients.reserveCapacity(clients.count + theirs.count)
        for (hash, client) in theirs where ClientSample.keeps(hash, level: level) {
            if let mine = clients[hash] {
                clients[hash] = union(mine, client)
            } else {
                clients[hash] = client
            }
        }
        while clients.count > ReleaseClients.limit, level < 63 { raise(to: level + 1) }
    }

    package mutating func merge(_ other: ReleaseClients) {
        if other.frozen != nil || frozen != nil {
            var sum = tallies
            sum.add(other.tallies)
            frozen = sum
            clients = [:]
            approximate = approximate || other.approximate
            return
        }
        add(other.clients, level: other.level, approximate: other.approximate)
    }

    /// Keeps the figures and drops the clients (a closed hour gets none to deduplicate).
    package mutating func freeze() {
        frozen = tallies
        clients = [:]
    }

    /// The hour's figures: app clients per version, and per family its split clients per version.
    package var tallies: ReleaseTallies {
        frozen ?? ReleaseTallies(level: level, clients: clients.values, approximate: approximate)
    }

    private mutating func raise(to newLevel: Int) {
        level = newLevel
        clients = clients.filter { ClientSample.keeps($0.key, level: newLevel) }
    }

    private mutating func union(_ a: Client, _ b: Client) -> Client {
        func joined(_ x: [String], _ y: [String], limit: Int) -> [String] {
            let all = Array(Set(x).union(y)).sorted()
            if all.count > limit { approximate = true }
            return Array(all.prefix(limit))
        }
        return Client(
            mask: a.mask | b.mask,
            versions: joined(a.versions, b.versions, limit: ReleaseSample.versionsPerClient),
            families: joined(a.families, b.families, limit: ReleaseSample.familiesPerClient))
    }
}

/// What the release association of one hour is worked out from (``ReleaseVerdict``), as sampled
/// counts at a sampling level (rate 2^-level): they add across runs and reports (rescaled to
/// the coarser level), where the clients behind them can no longer be told apart.
package struct ReleaseTallies: Codable, Equatable, Sendable {
    package struct Family: Codable, Equatable, Sendable {
        /// Sampled split clients that sent the family.
        package var splitClients: Int64 = 0
        /// Those of them per app version (a client whose app UAs named two counts on each).
        package var versions: [String: Int64] = [:]

        package init(splitClients: Int64 = 0, versions: [String: Int64] = [:]) {
            self.splitClients = splitClients
            self.versions = versions
        }

        enum CodingKeys: String, CodingKey {
            case splitClients = "split_clients"
            case versions
        }
    }

    package var level: Int
    /// Sampled clients that sent an app-class request.
    package var appClients: Int64 = 0
    /// Those of them per app version.
    package var versions: [String: Int64] = [:]
    /// Per alert-class family (report text).
    package var families: [String: Family] = [:]
    /// True when some client's versions or families, or some app UA, did not fit the bounds,
    /// or the counts were added across reports whose clients may overlap.
    package var approximate = false

    package init(level: Int) { self.level = level }

    /// The figures of sampled `clients` at `level`.
    package init(level: Int, clients: some Sequence<ReleaseClients.Client>, approximate: Bool) {
        self.level = level
        self.approximate = approximate
        for client in clients {
            if client.mask & ClientSample.app != 0 {
                appClients += 1
                for v in client.versions { versions[v, default: 0] += 1 }
            }
            guard client.mask == ClientSample.split else { continue }
            for family in client.families {
                var f = families[family] ?? Family()
                f.splitClients += 1
                for v in client.versions { f.versions[v, default: 0] += 1 }
                families[family] = f
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case level, versions, families, approximate
        case appClients = "app_clients"
    }

    /// Adds another part's figures, rescaled to the coarser of the two levels.
    package mutating func add(_ other: ReleaseTallies) {
        let to = max(level, other.level)
        func scaled(_ n: Int64, _ from: Int) -> Int64 { to - from >= 63 ? 0 : n >> Int64(to - from) }
        func rescale(_ t: inout ReleaseTallies) {
            let from = t.level
            t.appClients = scaled(t.appClients, from)
            t.versions = t.versions.mapValues { scaled($0, from) }
            t.families = t.families.mapValues {
                Family(splitClients: scaled($0.splitClients, from), versions: $0.versions.mapValues { scaled($0, from) })
            }
            t.level = to
        }
        var theirs = other
        rescale(&self)
        rescale(&theirs)
        appClients += theirs.appClients
        for (v, n) in theirs.versions { versions[v, default: 0] += n }
        for (name, f) in theirs.families {
            var mine = families[name] ?? Family()
            mine.splitClients += f.splitClients
            for (v, n) in f.versions { mine.versions[v, default: 0] += n }
            families[name] = mine
        }
        approximate = approximate || theirs.approximate
    }
}

extension ReleaseClients: Codable {
    enum CodingKeys: String, CodingKey {
        case sample, tallies
    }

    /// The sample as a report writes it (``Report/ReleaseSampleEntry``), with each client's hash
    /// in place of its id: a state file is the operator's, as the split clients' hashes are.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let frozen {
            try c.encode(frozen, forKey: .tallies)
            return
        }
        var records: [UInt64: ReleaseRecord] = [:]
        for (hash, client) in clients {
            records[hash] = ReleaseRecord(zeros: min(63, hash.leadingZeroBitCount), client: client)
        }
        try c.encode(Report.ReleaseSampleEntry(level: level, records: records, approximate: approximate), forKey: .sample)
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let tallies = try c.decodeIfPresent(ReleaseTallies.self, forKey: .tallies) {
            guard (0...63).contains(tallies.level) else {
                throw DecodingError.dataCorruptedError(forKey: .tallies, in: c, debugDescription: "level must be 0…63")
            }
            frozen = tallies
            return
        }
        let entry = try c.decode(Report.ReleaseSampleEntry.self, forKey: .sample)
        guard let records = entry.records() else {
            throw DecodingError.dataCorruptedError(
                forKey: .sample, in: c,
                debugDescription: "not a release sample of at most \(ReleaseClients.limit) clients its level keeps")
        }
        level = entry.level
        approximate = entry.approximate == true
        for (hash, r) in records {
            guard r.zeros == min(63, hash.leadingZeroBitCount) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sample, in: c, debugDescription: "a client's zero bits are not its hash's")
            }
            clients[hash] = r.client
        }
    }
}
