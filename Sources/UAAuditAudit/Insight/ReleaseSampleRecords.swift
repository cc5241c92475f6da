import FoundationEssentials

/// One client of a release sample known by its report id.
package struct ReleaseRecord: Equatable, Sendable {
    var zeros: Int
    var client: ReleaseClients.Client
}

extension ReleaseSampleEntry {
    /// The report form of an hour's sample; nil for a closed hour of a state that kept only its figures.
    package convenience init?(_ set: ReleaseClients, salt: ClientSalt) {
        guard set.frozen == nil else { return nil }
        var records: [UInt64: ReleaseRecord] = [:]
        for (hash, client) in set.clients {
            let zeros = min(63, (hash & ClientSample.hashMask).leadingZeroBitCount)
            records[salt.reportID(hash)] = ReleaseRecord(zeros: zeros, client: client)
        }
        self.init(level: set.level, records: records, approximate: set.approximate)
    }

    package convenience init(level: Int, records: [UInt64: ReleaseRecord], approximate: Bool) {
        let versions = Array(Set(records.values.flatMap(\.client.versions))).sorted()
        let families = Array(Set(records.values.flatMap(\.client.families))).sorted()
        let versionIndex = Dictionary(uniqueKeysWithValues: versions.enumerated().map { ($1, $0) })
        let familyIndex = Dictionary(uniqueKeysWithValues: families.enumerated().map { ($1, $0) })
        var bytes: [UInt8] = []
        func u16(_ n: Int) { bytes += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF)] }
        for (id, r) in records.sorted(by: { $0.key < $1.key }) {
            withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
            bytes += [UInt8(r.zeros), r.client.mask, UInt8(r.client.versions.count), UInt8(r.client.families.count)]
            for v in r.client.versions { u16(versionIndex[v] ?? 0) }
            for f in r.client.families { u16(familyIndex[f] ?? 0) }
        }
        self.init(
            level: level, versions: versions, families: families, records: Data(bytes).base64EncodedString(),
            approximate: approximate ? true : nil)
    }

    /// Whether `list` is sorted, without repeats, each item as `valid` says.
    static func isList(_ list: [String], of valid: (String) -> Bool) -> Bool {
        zip(list, list.dropFirst()).allSatisfy { $0 < $1 } && list.allSatisfy(valid)
    }

    /// Id → record, or nil when the entry is not what a report writes: a level outside 0…63,
    /// more than ``ReleaseClients/limit`` clients, ids not ascending, a client the level would
    /// not keep, without a kind, with more versions or families than a client keeps, or an
    /// index outside the lists.
    package func clientRecords() -> [UInt64: ReleaseRecord]? {
        guard (0...63).contains(level), versions.count <= ReleaseClients.limit * ReleaseSample.versionsPerClient,
            families.count <= ReleaseClients.limit * ReleaseSample.familiesPerClient,
            records.utf8.count <= ReleaseClients.limit * 40, let data = Data(base64Encoded: records),
            Self.isList(versions, of: UAAnatomy.isVersion),
            Self.isList(families, of: { !$0.isEmpty && $0.utf8.count <= 1024 })
        else { return nil }
        let bytes = [UInt8](data)
        var out: [UInt64: ReleaseRecord] = [:]
        var i = 0
        var previous: UInt64?
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        while i < bytes.count {
            guard i + 12 <= bytes.count, out.count < ReleaseClients.limit else { return nil }
            var id: UInt64 = 0
            for k in 0..<8 { id |= UInt64(bytes[i + k]) << UInt64(8 * k) }
            let (zeros, mask, nv, nf) = (Int(bytes[i + 8]), bytes[i + 9], Int(bytes[i + 10]), Int(bytes[i + 11]))
            i += 12
            guard previous.map({ $0 < id }) ?? true, zeros <= 63, zeros >= level, mask & ClientSample.split != 0,
                mask & ~ReleaseClients.maskBits == 0, nv <= ReleaseSample.versionsPerClient,
                nf <= ReleaseSample.familiesPerClient, i + 2 * (nv + nf) <= bytes.count
            else { return nil }
            var client = ReleaseClients.Client(mask: mask)
            for k in 0..<nv {
                let v = u16(i + 2 * k)
                guard v < versions.count else { return nil }
                client.versions.append(versions[v])
            }
            for k in 0..<nf {
                let f = u16(i + 2 * (nv + k))
                guard f < families.count else { return nil }
                client.families.append(families[f])
            }
            i += 2 * (nv + nf)
            out[id] = ReleaseRecord(zeros: zeros, client: client)
            previous = id
        }
        return out
    }
}

/// The union of several reports' release samples of one hour, at the coarsest of their levels
/// and thinned to ``ReleaseClients/limit`` (so the merge of a log's halves is the sample of the
/// whole): what `merge` judges releases again from.
package struct ReleaseUnion: Sendable {
    private(set) var level = 0
    private(set) var records: [UInt64: ReleaseRecord] = [:]
    private(set) var approximate = false

    package init() {}

    /// Adds a report's records at its level.
    package mutating func add(_ theirs: [UInt64: ReleaseRecord], level theirLevel: Int, approximate cut: Bool) {
        if cut { approximate = true }
        if theirLevel > level { raise(to: theirLevel) }
        for (id, r) in theirs where r.zeros >= level {
            guard let mine = records[id] else {
                records[id] = r
                continue
            }
            records[id] = ReleaseRecord(zeros: r.zeros, client: ReleaseClients.union(mine.client, r.client))
        }
        while records.count > ReleaseClients.limit, level < 63 { raise(to: level + 1) }
    }

    private mutating func raise(to newLevel: Int) {
        level = newLevel
        records = records.filter { $0.value.zeros >= newLevel }
    }

    package var tallies: ReleaseTallies {
        ReleaseTallies(level: level, clients: records.values.map(\.client), approximate: approximate)
    }

    package var entry: ReleaseSampleEntry {
        ReleaseSampleEntry(level: level, records: records, approximate: approximate)
    }
}
