import FoundationEssentials
import UAAuditAudit

/// A report's client sample (``Report/ClientSampleEntry``) to and from its records, and the
/// union of several reports' samples that `merge` counts fleet-wide split clients from.
extension Report.ClientSampleEntry {
    /// The report form of an hour's sample: each client by its id under `salt`.
    init(_ sample: ClientSet.ReportSample, salt: ClientSalt) {
        var records: [(id: UInt64, byte: UInt8)] = []
        records.reserveCapacity(sample.masks.count)
        sample.masks.forEachEntry { hash, mask in
            let zeros = min(63, (hash & ClientSample.hashMask).leadingZeroBitCount)
            records.append((salt.reportID(hash), UInt8(zeros << 2) | (mask & ClientSample.split)))
        }
        records.sort { $0.id < $1.id }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 9)
        for r in records {
            withUnsafeBytes(of: r.id.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(r.byte)
        }
        self.init(level: sample.level, clients: Data(bytes).base64EncodedString())
    }

    /// Id → record byte (leading zero bits × 4 + kinds), or nil when the text is not base64 of
    /// at most ``ClientSet/reportSampleLimit`` 9-byte records in ascending id order, the level
    /// is not 0…63, or a record's zero bits are under the level (a client the level would not
    /// have kept) or it has neither kind.
    func records() -> [UInt64: UInt8]? {
        guard (0...63).contains(level), clients.utf8.count <= (ClientSet.reportSampleLimit * 9 + 2) / 3 * 4,
            let data = Data(base64Encoded: clients), data.count % 9 == 0
        else {
            return nil
        }
        let bytes = [UInt8](data)
        var out: [UInt64: UInt8] = [:]
        out.reserveCapacity(bytes.count / 9)
        var previous: UInt64?
        for i in stride(from: 0, to: bytes.count, by: 9) {
            var id: UInt64 = 0
            for k in 0..<8 { id |= UInt64(bytes[i + k]) << UInt64(8 * k) }
            let byte = bytes[i + 8]
            guard Int(byte >> 2) >= level, byte & ClientSample.split != 0, previous.map({ $0 < id }) ?? true else {
                return nil
            }
            previous = id
            out[id] = byte
        }
        return out
    }
}

/// The union of the client samples of one hour from several reports: a uniform sample of the
/// union of their clients at the coarsest of their levels, thinned to at most
/// ``ClientSet/reportSampleLimit`` (one level at a time, as a host thins its own).
struct FleetClients: Sendable {
    private(set) var level = 0
    /// Id → leading zero bits × 4 + kinds.
    private var records: [UInt64: UInt8] = [:]
    private(set) var examples: [String] = []

    init() {}

    /// Adds one report's sample; false when it is not a valid sample.
    mutating func add(_ entry: Report.ClientSampleEntry, examples theirs: [String]) -> Bool {
        guard let theirRecords = entry.records() else { return false }
        if entry.level > level { raise(to: entry.level) }
        for (id, byte) in theirRecords where Int(byte >> 2) >= level {
            // The same client on two hosts: its kinds join (its zero bits are the same).
            let mine = records[id] ?? 0
            records[id] =
                max(mine & ~ClientSample.split, byte & ~ClientSample.split) | ((mine | byte) & ClientSample.split)
        }
        while records.count > ClientSet.reportSampleLimit, level < 63 { raise(to: level + 1) }
        for e in theirs where examples.count < ClientSample.examplesPerHour && !examples.contains(e) {
            examples.append(e)
        }
        return true
    }

    private mutating func raise(to newLevel: Int) {
        level = newLevel
        records = records.filter { Int($0.value >> 2) >= newLevel }
    }

    /// The sampled counts of the union.
    var counts: ClientCounts {
        var c = ClientCounts(level: level)
        for byte in records.values {
            let mask = byte & ClientSample.split
            if mask & ClientSample.app != 0 { c.app += 1 }
            if mask & ClientSample.alert != 0 { c.alert += 1 }
            if mask == ClientSample.split { c.split += 1 }
        }
        return c
    }

    /// The union as a report sample (records sorted by id).
    var entry: Report.ClientSampleEntry {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 9)
        for id in records.keys.sorted() {
            withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(records[id]!)
        }
        return Report.ClientSampleEntry(level: level, clients: Data(bytes).base64EncodedString())
    }
}
