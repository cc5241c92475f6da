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
    /// Mask bits beside ``ClientSample``'s kinds: the client named more app versions, or sent
    /// more alert-class families, than a client keeps (a shared key, a crafted one): it keeps
    /// none of them, whatever order they came in.
    static let manyVersions: UInt8 = 4
    static let manyFamilies: UInt8 = 8
    static let maskBits: UInt8 = ClientSample.split | manyVersions | manyFamilies

    package struct Client: Equatable, Sendable {
        /// ``ClientSample``'s kind bits.
        var mask: UInt8
        /// App versions (sorted), at most ``ReleaseSample/versionsPerClient``.
        var versions: [String]
        /// Alert-class families (report text, sorted), at most ``ReleaseSample/familiesPerClient``.
        var families: [String]

        init(mask: UInt8, versions: [String] = [], families: [String] = []) {
            self.mask = mask
            self.versions = versions
            self.families = families
        }
    }

    /// The set's fields, behind one reference that an empty set does not allocate: every hour
    /// of a result holds a set (300,000 hours of a year's log), most of them empty. Copied on
    /// write.
    private struct Fields: Equatable {
        var level = 0
        var clients: [UInt64: Client] = [:]
        var approximate = false
        /// Figures whose clients are no longer kept (their keys' salt changed).
        var frozen: ReleaseTallies?
    }

    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box?

    private var fields: Fields {
        get { box?.fields ?? Fields() }
        _modify {
            if box == nil {
                box = Box(Fields())
            } else if !isKnownUniquelyReferenced(&box!) {
                box = Box(box!.fields)
            }
            yield &box!.fields
        }
    }

    private(set) var level: Int {
        get { fields.level }
        _modify { yield &fields.level }
    }
    package private(set) var clients: [UInt64: Client] {
        get { fields.clients }
        _modify { yield &fields.clients }
    }
    private(set) var approximate: Bool {
        get { fields.approximate }
        _modify { yield &fields.approximate }
    }
    private(set) var frozen: ReleaseTallies? {
        get { fields.frozen }
        _modify { yield &fields.frozen }
    }

    package static func == (a: ReleaseClients, b: ReleaseClients) -> Bool { a.fields == b.fields }

    init() {}

    /// Adds the clients of one bucket of a stretch, sampled there at `level`.
    mutating func add(_ theirs: [UInt64: Client], level theirLevel: Int, approximate cut: Bool) {
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
                clients[hash] = ReleaseClients.union(mine, client)
            } else {
                clients[hash] = client
            }
        }
        while clients.count > ReleaseClients.limit, level < 63 { raise(to: level + 1) }
    }

    mutating func merge(_ other: ReleaseClients) {
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

    /// Two parts of one client: kinds joined; versions (families) joined unless either part
    /// had too many or together they have, and then none (``manyVersions``): the same
    /// whichever part came first.
    static func union(_ a: Client, _ b: Client) -> Client {
        var mask = a.mask | b.mask
        func joined(_ x: [String], _ y: [String], _ flag: UInt8, _ limit: Int) -> [String] {
            guard mask & flag == 0 else { return [] }
            let all = Array(Set(x).union(y)).sorted()
            guard all.count <= limit else {
                mask |= flag
                return []
            }
            return all
        }
        let versions = joined(a.versions, b.versions, manyVersions, ReleaseSample.versionsPerClient)
        let families = joined(a.families, b.families, manyFamilies, ReleaseSample.familiesPerClient)
        return Client(mask: mask, versions: versions, families: families)
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
        var versions: [String: Int64] = [:]

        init(splitClients: Int64 = 0, versions: [String: Int64] = [:]) {
            self.splitClients = splitClients
            self.versions = versions
        }

        enum CodingKeys: String, CodingKey {
            case splitClients = "split_clients"
            case versions
        }
    }

    package var level: Int
    /// Sampled clients that sent an app-class request naming one app version (the clients the
    /// verdict reads).
    var appClients: Int64 = 0
    /// Sampled app clients whose UAs named no version or several (not read by the verdict).
    var sharedClients: Int64 = 0
    /// Those of them per app version.
    var versions: [String: Int64] = [:]
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
            // Only a client whose app UAs named one version tells which release sends what: a
            // key with several is a shared address (NAT, carrier-grade NAT) or an upgrade,
            // and carrier-grade NAT keys, many and each with every release, would otherwise
            // make a rare old release look guilty.
            guard client.mask & ClientSample.app != 0, client.versions.count == 1 else {
                if client.mask & ClientSample.app != 0 { sharedClients += 1 }
                continue
            }
            appClients += 1
            let version = client.versions[0]
            versions[version, default: 0] += 1
            guard client.mask & ClientSample.split == ClientSample.split else { continue }
            for family in client.families {
                var f = families[family] ?? Family()
                f.splitClients += 1
                f.versions[version, default: 0] += 1
                families[family] = f
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case level, versions, families, approximate
        case appClients = "app_clients"
        case sharedClients = "shared_clients"
    }

    /// Adds another part's figures, rescaled to the coarser of the two levels.
    mutating func add(_ other: ReleaseTallies) {
        let to = max(level, other.level)
        func scaled(_ n: Int64, _ from: Int) -> Int64 { to - from >= 63 ? 0 : n >> Int64(to - from) }
        func rescale(_ t: inout ReleaseTallies) {
            let from = t.level
            t.appClients = scaled(t.appClients, from)
            t.sharedClients = scaled(t.sharedClients, from)
            t.versions = t.versions.mapValues { scaled($0, from) }
            t.families = t.families.mapValues {
                Family(
                    splitClients: scaled($0.splitClients, from), versions: $0.versions.mapValues { scaled($0, from) })
            }
            t.level = to
        }
        var theirs = other
        rescale(&self)
        rescale(&theirs)
        appClients += theirs.appClients
        sharedClients += theirs.sharedClients
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

    /// The sample as a report writes it (``ReleaseSampleEntry``), with each client's hash
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
        try c.encode(ReleaseSampleEntry(level: level, records: records, approximate: approximate), forKey: .sample)
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
        let entry = try c.decode(ReleaseSampleEntry.self, forKey: .sample)
        guard let records = entry.clientRecords() else {
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
