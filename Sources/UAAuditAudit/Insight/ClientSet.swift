import FoundationEssentials

/// The clients of one hour, by kind of request (app class, alert class), merged across chunks,
/// inputs and runs: exact up to ``maxEntries`` clients, then a uniform hash sample (see
/// ``ClientSample``) whose counts scaled by 2^level estimate the true ones.
///
/// `uaaudit run` keeps an open hour's set in its state, so an hour read over several runs counts
/// each client once; when the hour closes only the counts are kept (``freeze()``).
package struct ClientSet: Equatable, Sendable {
    static let maxEntries = 131_072

    private(set) var level = 0
    private(set) var masks = ClientMasks()
    /// Keys (decoded, as report text) of the first split clients: as logged until
    /// ``showExamples(salt:full:)`` hashes them (as soon as an audit hands the hour on, so that
    /// no address reaches a state file unless `--show-client-keys` asked for it).
    package private(set) var examples: [String] = []
    /// True when ``examples`` are hashed (``ClientSalt/display(_:)``).
    package private(set) var examplesHashed = false
    /// The counts of a closed hour, whose masks are no longer kept.
    package private(set) var frozen: ClientCounts?
    /// A closed hour's ``reportSample``, kept when its masks go so that its reports stay mergeable.
    private var frozenSample: ReportSample?

    /// The most clients an hour's report sample holds (``reportSample``).
    package static let reportSampleLimit = 4_096

    /// The clients a report carries so that `merge` can count split clients across hosts: the
    /// set's entries sampled at the finest level, from the set's own, that keeps at most
    /// ``reportSampleLimit``. A client is kept at level L when its hash starts with L zero bits,
    /// on every host alike, so the union of several hosts' samples at the coarsest of their
    /// levels is a uniform sample of the union of their clients.
    package struct ReportSample: Equatable, Sendable {
        package var level: Int
        package var masks: ClientMasks

        init(level: Int, masks: ClientMasks) {
            self.level = level
            self.masks = masks
        }

        /// Thinned level by level until it holds at most `limit`.
        mutating func thin(toAtMost limit: Int) {
            while masks.count > limit, level < 64 {
                level += 1
                let l = level
                masks.keepPrefix { ClientSample.keeps($0, level: l) }
            }
        }

        /// The union with `other`, at the coarser level, thinned to at most `limit`.
        mutating func formUnion(_ other: ReportSample, limit: Int) {
            var theirs = other.masks
            let to = max(level, other.level)
            if to > level { masks.keepPrefix { ClientSample.keeps($0, level: to) } }
            if to > other.level { theirs.keepPrefix { ClientSample.keeps($0, level: to) } }
            level = to
            masks.formUnion(theirs)
            thin(toAtMost: limit)
        }
    }

    /// Nil for a closed hour of a state written before closed hours kept their sample.
    package var reportSample: ReportSample? {
        if frozen != nil { return frozenSample }
        var sample = ReportSample(level: level, masks: masks)
        sample.thin(toAtMost: ClientSet.reportSampleLimit)
        return sample
    }

    init() {}

    /// The sampled counts.
    package var counts: ClientCounts {
        if let frozen { return frozen }
        var c = ClientCounts(level: level)
        masks.forEachEntry { _, mask in
            if mask & ClientSample.app != 0 { c.app += 1 }
            if mask & ClientSample.alert != 0 { c.alert += 1 }
            if mask == ClientSample.split { c.split += 1 }
        }
        return c
    }

    /// Adds one client's mask sampled at `level` (the level of the table it came from).
    mutating func add(hash: UInt64, mask: UInt8, level sourceLevel: Int) {
        if sourceLevel > level { raise(to: sourceLevel) }
        guard ClientSample.keeps(hash, level: level) else { return }
        masks.formUnion(hash, mask)
        keepWithinMaxEntries()
    }

    /// Adds the clients of one hour of a chunk, sampled at `level`: ascending packed entries
    /// (``ClientSample/run(of:)``), merged in one pass. The result is the union sampled at the
    /// coarser of the two levels, then at the finest level from there that keeps at most
    /// ``maxEntries``: the same set one ``add(hash:mask:level:)`` per entry gives, in any order,
    /// since that too raises the level until the set fits. Before the bulk merge (966f10f) an
    /// add raised the level once at most: the same set whenever each raise dropped a client,
    /// but after a raise that dropped none (hashes sharing their leading bits, as crafted keys
    /// can) it kept more than ``maxEntries`` (one more for each client added so) at a finer
    /// level, until a later raise dropped some.
    mutating func add(sortedRun run: UnsafeBufferPointer<UInt64>, level sourceLevel: Int) {
        if sourceLevel > level { raise(to: sourceLevel) }
        // The kept entries are a prefix of the run (the hashes below the level's threshold).
        var (low, high) = (0, run.count)
        while low < high {
            let mid = (low + high) / 2
            if ClientSample.keeps(run[mid] & ClientSample.hashMask, level: level) { low = mid + 1 } else { high = mid }
        }
        masks.merge(sortedRun: UnsafeBufferPointer(rebasing: run[..<low]))
        keepWithinMaxEntries()
    }

    /// Makes room for `additional` more clients before a batch of ``add(hash:mask:level:)``.
    mutating func reserve(additional: Int) {
        guard frozen == nil else { return }
        masks.reserve(additional: min(additional, ClientSet.maxEntries - masks.count))
    }

    /// Hashes the examples unless they are to be shown in full. Those hashed already stay as
    /// they are: an hour's examples can be a mix, when a run with `--show-client-keys` added
    /// keys in full to the hashed ones of earlier runs.
    package mutating func showExamples(salt: ClientSalt, full: Bool) {
        guard !full, !examplesHashed else { return }
        examples = examples.map { ClientSalt.looksHashed($0) ? $0 : salt.display($0) }
        examplesHashed = true
    }

    mutating func addExample(_ key: String) {
        if examples.count < ClientSample.examplesPerHour, !examples.contains(key) { examples.append(key) }
    }

    mutating func merge(_ other: ClientSet) {
        if let theirs = other.frozen ?? (frozen != nil ? other.counts : nil) {
            // A closed hour's set has no masks left: counts can only be added (not deduplicated).
            var mine = counts
            mine.add(theirs)
            var sample = reportSample
            if let theirs = other.reportSample {
                sample?.formUnion(theirs, limit: ClientSet.reportSampleLimit)
            } else {
                sample = nil
            }
            frozen = mine
            frozenSample = sample
            masks = ClientMasks()
        } else {
            if other.level > level { raise(to: other.level) }
            var theirs = other.masks
            if level > other.level { theirs.keepPrefix { ClientSample.keeps($0, level: level) } }
            masks.formUnion(theirs)
            keepWithinMaxEntries()
        }
        // All hashed only when both sides' are (a side without examples has no say).
        if examples.isEmpty {
            examplesHashed = other.examplesHashed
        } else if !other.examples.isEmpty {
            examplesHashed = examplesHashed && other.examplesHashed
        }
        for e in other.examples { addExample(e) }
    }

    /// Keeps the counts and drops the masks (a closed hour gets no new clients to deduplicate).
    package mutating func freeze() {
        frozenSample = reportSample
        frozen = counts
        masks = ClientMasks()
    }

    /// Keeps the counts and drops the clients, sample and examples: they were keyed with another
    /// salt, so no later client can be matched with them, nor can another host's.
    package mutating func forgetKeys() {
        frozen = counts
        frozenSample = nil
        masks = ClientMasks()
        examples = []
        examplesHashed = true
    }

    /// Makes the set a sample at least as coarse as `newLevel` (a source that sampled at that level).
    mutating func sample(atLevel newLevel: Int) {
        if newLevel > level { raise(to: newLevel) }
    }

    private mutating func raise(to newLevel: Int) {
        level = newLevel
        masks.keepPrefix { ClientSample.keeps($0, level: newLevel) }
    }

    /// Samples one level coarser while the set holds more than ``maxEntries``.
    private mutating func keepWithinMaxEntries() {
        while masks.count > ClientSet.maxEntries { raise(to: level + 1) }
    }
}

/// Sampled client counts and their sampling level.
package struct ClientCounts: Codable, Equatable, Sendable {
    package var level: Int
    package var app: Int64 = 0
    package var alert: Int64 = 0
    package var split: Int64 = 0

    package init(level: Int) { self.level = level }

    mutating func add(_ other: ClientCounts) {
        // Rescale to the coarser level so the sum stays an estimate of the same kind.
        let to = max(level, other.level)
        func scaled(_ n: Int64, _ from: Int) -> Int64 { n >> Int64(to - from) }
        app = scaled(app, level) + scaled(other.app, other.level)
        alert = scaled(alert, level) + scaled(other.alert, other.level)
        split = scaled(split, level) + scaled(other.split, other.level)
        level = to
    }

    /// The estimated number of clients for a sampled count.
    func estimate(_ sampled: Int64) -> Int64 { sampled << Int64(level) }

    /// ``estimate(_:)``, but never over `limit` when sampled: there cannot be more clients of a
    /// kind than requests of that kind. The sample keeps the keys whose hash starts with
    /// `level` zero bits, so crafted keys (hashes with many leading zero bits) all stay in it
    /// while the rate keeps halving, and `sampled × 2^level` could claim billions of clients
    /// for a few thousand requests. An exact count (level 0) is returned as it is.
    package func estimate(_ sampled: Int64, atMost limit: Int64) -> Int64 {
        guard level > 0 else { return sampled }
        // sampled > limit >> level ⇔ sampled << level > limit, without overflowing.
        if sampled > max(limit, 0) >> Int64(level) { return max(limit, 0) }
        return sampled << Int64(level)
    }

    /// One standard error of ``estimate(_:)``: a Bernoulli sample at rate p = 2^-level has
    /// variance n(1-p)/p, estimated from the sampled count as sampled·(1-p)/p².
    ///
    /// A sampled count of 0 is taken as 1: "none in the sample" is not "none" (at rate p, 3/p
    /// is the usual 95% bound of a count none of whose members were drawn), so an estimate of
    /// 0 does not claim to be exact.
    package func standardError(_ sampled: Int64) -> Double {
        guard level > 0 else { return 0 }
        let p = rate
        return (Double(max(sampled, 1)) * (1 - p)).squareRoot() / p
    }

    /// The sampling rate, 2^-level (1 when exact).
    package var rate: Double { Double(sign: .plus, exponent: -level, significand: 1) }
}

extension ClientSet: Codable {
    enum CodingKeys: String, CodingKey {
        case level, clients, examples, counts
        case examplesHashed = "examples_hashed"
        case sampleLevel = "sample_level"
        case sample
    }

    /// Masks are stored as base64 of (hash, little-endian, 8 bytes; mask, 1 byte), sorted by hash.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(level, forKey: .level)
        try c.encode(examples, forKey: .examples)
        if examplesHashed { try c.encode(true, forKey: .examplesHashed) }
        if let frozen {
            try c.encode(frozen, forKey: .counts)
            if let frozenSample {
                try c.encode(frozenSample.level, forKey: .sampleLevel)
                try c.encode(Self.encode(frozenSample.masks), forKey: .sample)
            }
            return
        }
        try c.encode(Self.encode(masks), forKey: .clients)
    }

    private static func encode(_ masks: ClientMasks) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(masks.count * 9)
        masks.forEachEntry { hash, mask in
            withUnsafeBytes(of: hash.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(mask)
        }
        return Data(bytes).base64EncodedString()
    }

    private static func decodeMasks(_ text: String, in c: KeyedDecodingContainer<CodingKeys>, key: CodingKeys) throws
        -> ClientMasks
    {
        guard let data = Data(base64Encoded: text), data.count % 9 == 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "not base64 of 9-byte client records")
        }
        let bytes = [UInt8](data)
        var masks = ClientMasks()
        for i in stride(from: 0, to: bytes.count, by: 9) {
            var hash: UInt64 = 0
            for k in 0..<8 { hash |= UInt64(bytes[i + k]) << UInt64(8 * k) }
            masks.formUnion(hash, bytes[i + 8])
        }
        return masks
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        level = try c.decode(Int.self, forKey: .level)
        guard (0...63).contains(level) else {
            throw DecodingError.dataCorruptedError(forKey: .level, in: c, debugDescription: "level must be 0…63")
        }
        examples = try c.decodeIfPresent([String].self, forKey: .examples) ?? []
        examplesHashed = try c.decodeIfPresent(Bool.self, forKey: .examplesHashed) ?? false
        frozen = try c.decodeIfPresent(ClientCounts.self, forKey: .counts)
        guard frozen == nil else {
            // A closed hour of a state written before it kept its sample has none.
            if let text = try c.decodeIfPresent(String.self, forKey: .sample) {
                let sampleLevel = try c.decode(Int.self, forKey: .sampleLevel)
                guard (0...63).contains(sampleLevel) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .sampleLevel, in: c, debugDescription: "sample_level must be 0…63")
                }
                frozenSample = ReportSample(level: sampleLevel, masks: try Self.decodeMasks(text, in: c, key: .sample))
            }
            return
        }
        masks = try Self.decodeMasks(try c.decodeIfPresent(String.self, forKey: .clients) ?? "", in: c, key: .clients)
    }
}
