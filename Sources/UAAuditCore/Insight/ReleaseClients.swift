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
    package static let limit = 1_024

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
        if let frozen { return frozen }
        var t = ReleaseTallies(level: level)
        t.approximate = approximate
        for client in clients.values {
            let app = client.mask & ClientSample.app != 0
            if app {
                t.appClients += 1
                for v in client.versions { t.versions[v, default: 0] += 1 }
            }
            guard client.mask == ClientSample.split else { continue }
            for family in client.families {
                var f = t.families[family] ?? ReleaseTallies.Family()
                f.splitClients += 1
                for v in client.versions { f.versions[v, default: 0] += 1 }
                t.families[family] = f
            }
        }
        return t
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
        case level, clients, approximate, tallies
    }

    /// One client as `[hash in hex, mask, [versions], [families]]`.
    private struct Record: Codable {
        var hash: String
        var mask: UInt8
        var versions: [String]
        var families: [String]

        init(hash: String, mask: UInt8, versions: [String], families: [String]) {
            self.hash = hash
            self.mask = mask
            self.versions = versions
            self.families = families
        }

        init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            hash = try c.decode(String.self)
            mask = try c.decode(UInt8.self)
            versions = try c.decode([String].self)
            families = try c.decode([String].self)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(hash)
            try c.encode(mask)
            try c.encode(versions)
            try c.encode(families)
        }
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let frozen {
            try c.encode(frozen, forKey: .tallies)
            return
        }
        try c.encode(level, forKey: .level)
        if approximate { try c.encode(true, forKey: .approximate) }
        let records = clients.sorted { $0.key < $1.key }.map {
            Record(hash: String($0.key, radix: 16), mask: $0.value.mask, versions: $0.value.versions,
                families: $0.value.families)
        }
        try c.encode(records, forKey: .clients)
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
        level = try c.decode(Int.self, forKey: .level)
        guard (0...63).contains(level) else {
            throw DecodingError.dataCorruptedError(forKey: .level, in: c, debugDescription: "level must be 0…63")
        }
        approximate = try c.decodeIfPresent(Bool.self, forKey: .approximate) ?? false
        let records = try c.decode([Record].self, forKey: .clients)
        guard records.count <= ReleaseClients.limit else {
            throw DecodingError.dataCorruptedError(
                forKey: .clients, in: c, debugDescription: "more than \(ReleaseClients.limit) clients")
        }
        for r in records {
            guard let hash = UInt64(r.hash, radix: 16), r.versions.count <= ReleaseSample.versionsPerClient,
                r.families.count <= ReleaseSample.familiesPerClient
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .clients, in: c, debugDescription: "a client record is not [hex hash, mask, versions, families]")
            }
            clients[hash] = Client(mask: r.mask, versions: r.versions, families: r.families)
        }
    }
}
