/// Which app versions and which alert-class UA families a sample of each hour's clients sent,
/// for one stretch of input: the hot-path half of the release association (see
/// ``ReleaseClients`` and ``ReleaseVerdict``), which tells from the split clients of an
/// inconsistent family which app release sends it.
///
/// The sample keeps clients as the split-client figures do (``ClientSample``): those whose
/// hash starts with the bucket's level of zero bits, the level rising while a bucket has more
/// than ``limit`` clients, so every host and chunk keeps a client alike and a union of samples
/// is again one. A kept client records up to ``versionsPerClient`` app versions (the version
/// tag the UA cache's entry carries, read once per distinct UA by ``VersionCache``) and up to
/// ``familiesPerClient`` family ids; a client with more keeps none of them (a shared key).
///
/// Cost: the common line is a level check and, for a kept client, one look at a small
/// direct-mapped filter of (bucket, client, version or family) pairs already noted. A new pair
/// costs a probe of the bucket's table; a bucket's table is rebuilt only when its level rises.
final class ReleaseSample {
    /// The most clients a bucket of one stretch keeps, and an hour (``ReleaseClients/limit``):
    /// the same bound, so that an hour's sample is the finest level that keeps at most this of
    /// its clients however its lines were split into chunks, inputs or reports (the merge of a
    /// log's halves is the sample of the whole). A bottom-k sample of N clients takes about
    /// k·(1 + ln(N/k)) insertions, most of them of clients a later rise drops: the hot path's cost.
    static let limit = 512
    static let versionsPerClient = 4
    static let familiesPerClient = 4
    /// Distinct versions a stretch names (more: approximate).
    static let maxVersions = 1_000
    static let filterSlots = 1 << 12

    /// One kept client: its hash, kind bits, and up to four 16-bit ids each of versions (into
    /// ``versionNames``) and families (the worker's family ids + 1), 0 where unused.
    struct Entry: Equatable, Sendable {
        var hash: UInt64
        var versions: UInt64 = 0
        var families: UInt64 = 0
        var mask: UInt8 = 0

        /// The ids packed in `word`.
        static func ids(_ word: UInt64) -> [UInt16] {
            (0..<4).compactMap { i in
                let id = UInt16(truncatingIfNeeded: word >> UInt64(16 * i))
                return id == 0 ? nil : id
            }
        }

        /// `word` with `id` added; nil when it has four others.
        static func adding(_ id: UInt16, to word: UInt64) -> UInt64? {
            for i in 0..<4 {
                let shift = UInt64(16 * i)
                let present = UInt16(truncatingIfNeeded: word >> shift)
                if present == id { return word }
                if present == 0 { return word | UInt64(id) << shift }
            }
            return nil
        }
    }

    private struct Bucket {
        var level = 0
        var entries: [Entry] = []
        /// Entry index + 1 per slot, 0 when empty: a power of two, at least twice the entries,
        /// grown as they come (a chunk of many quiet hours must not cost a full table each).
        var slots: [Int32] = []

        /// Up to this many entries a bucket has no slots and is searched in order (most hours
        /// of a chunk have a few clients; 300,000 one-client hours must not cost a table each).
        static let linearEntries = 8

        /// The index of the entry of `hash`, added when new.
        mutating func entry(_ hash: UInt64) -> Int {
            if entries.count < Bucket.linearEntries, slots.isEmpty {
                if let e = entries.firstIndex(where: { $0.hash == hash }) { return e }
                entries.append(Entry(hash: hash))
                return entries.count - 1
            }
            if (entries.count + 1) * 2 > slots.count { place(capacity: max(32, slots.count * 2)) }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: CounterTable.spread(hash)) & mask
            while true {
                let e = Int(slots[slot]) - 1
                if e < 0 { break }
                if entries[e].hash == hash { return e }
                slot = (slot + 1) & mask
            }
            entries.append(Entry(hash: hash))
            slots[slot] = Int32(entries.count)
            return entries.count - 1
        }

        /// Keeps the entries `level` keeps, and places them again.
        mutating func raise(to newLevel: Int) {
            level = newLevel
            entries.removeAll { !ClientSample.keeps($0.hash, level: newLevel) }
            if !slots.isEmpty { place(capacity: slots.count) }
        }

        /// Places every entry in `capacity` slots.
        private mutating func place(capacity: Int) {
            slots = [Int32](repeating: 0, count: capacity)
            let mask = capacity - 1
            for (e, entry) in entries.enumerated() {
                var slot = Int(truncatingIfNeeded: CounterTable.spread(entry.hash)) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(e + 1)
            }
        }
    }

    /// What changes per request, behind a pointer: a class's stored `var` costs a dynamic
    /// exclusivity check on every access.
    private struct State {
        var buckets: [Bucket] = []
        /// The stretch's id of each version tag's index (0: not seen yet), for tags of
        /// ``taggedGeneration``.
        var tagIDs: [UInt16] = []
        var taggedGeneration: UInt32 = .max
        /// Version texts by id; id 0 is "no version".
        var versionNames: [String] = [""]
        var approximate = false
        /// Each bucket's level, for the per-line check (buckets not yet here are at level 0).
        var levels: [Int32] = Array(repeating: 0, count: 64)
    }

    private let state: UnsafeMutablePointer<State>
    private let filter: UnsafeMutablePointer<UInt64>
    private let versions: VersionCache

    /// Version texts by id; id 0 is "no version".
    var versionNames: [String] { state.pointee.versionNames }
    /// True when something did not fit (a client's versions or families, the version table, a
    /// family the tally did not track).
    var approximate: Bool { state.pointee.approximate }

    /// `versions` is the worker's cache of app UAs' versions (kept from chunk to chunk).
    init(versions: VersionCache) {
        self.versions = versions
        filter = .allocate(capacity: ReleaseSample.filterSlots)
        filter.initialize(repeating: 0, count: ReleaseSample.filterSlots)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        filter.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The buckets noted into so far.
    var bucketCount: Int { state.pointee.buckets.count }

    func level(of bucket: Int) -> Int {
        bucket < state.pointee.buckets.count ? state.pointee.buckets[bucket].level : 0
    }

    /// The kept clients of `bucket`.
    func entries(of bucket: Int) -> [Entry] {
        bucket < state.pointee.buckets.count ? state.pointee.buckets[bucket].entries : []
    }

    /// Notes an app-class request (`bits` has ``ClientSample/app``) whose UA has the version
    /// tag `versionTag` (``UACache/versionTag(_:)``), or an alert-class request of the tracked
    /// family `family` (nil when its family is not tracked).
    @inline(__always)
    func note(bucket: Int, hash: UInt64, bits: UInt8, versionTag: UInt32, family: UInt32?) {
        if bucket < state.pointee.levels.count, !ClientSample.keeps(hash, level: Int(state.pointee.levels[bucket])) {
            return
        }
        let token = bits & ClientSample.app != 0 ? UInt64(versionTag) : UInt64(family ?? .max) | 1 << 63
        // Each part mixed on its own: a sum (token + bucket) made family 2 of one hour the same
        // pair as family 1 of the next, and dropped its clients' families.
        let key = CounterTable.spread(
            hash ^ CounterTable.spread(token) &* 3 ^ CounterTable.spread(UInt64(truncatingIfNeeded: bucket) | 1 << 62))
        let slot = Int(truncatingIfNeeded: key) & (ReleaseSample.filterSlots - 1)
        if filter[slot] == key { return }
        filter[slot] = key
        add(bucket: bucket, hash: hash, bits: bits, versionTag: versionTag, family: family)
    }

    @inline(never)
    private func add(bucket: Int, hash: UInt64, bits: UInt8, versionTag: UInt32, family: UInt32?) {
        let version = bits & ClientSample.app != 0 ? self.version(tag: versionTag) : 0
        ReleaseSample.add(
            into: &state.pointee, bucket: bucket, hash: hash, bits: bits, version: version, family: family)
    }

    private static func add(
        into s: inout State, bucket: Int, hash: UInt64, bits: UInt8, version: UInt16, family: UInt32?
    ) {
        while s.buckets.count <= bucket { s.buckets.append(Bucket()) }
        while s.levels.count <= bucket { s.levels.append(contentsOf: repeatElement(0, count: s.levels.count)) }
        guard ClientSample.keeps(hash, level: s.buckets[bucket].level) else { return }
        let e = s.buckets[bucket].entry(hash)
        var entry = s.buckets[bucket].entries[e]
        entry.mask |= bits
        if version != 0, entry.mask & ReleaseClients.manyVersions == 0 {
            if let word = Entry.adding(version, to: entry.versions) {
                entry.versions = word
            } else {
                // More versions than a client keeps: a shared key; which ones came first must
                // not matter, so it keeps none (the verdict reads single-version clients).
                entry.versions = 0
                entry.mask |= ReleaseClients.manyVersions
            }
        }
        if bits & ClientSample.alert != 0, entry.mask & ReleaseClients.manyFamilies == 0 {
            if let family, family < UInt32(UInt16.max) {
                if let word = Entry.adding(UInt16(family + 1), to: entry.families) {
                    entry.families = word
                } else {
                    entry.families = 0
                    entry.mask |= ReleaseClients.manyFamilies
                }
            } else {
                s.approximate = true
            }
        }
        s.buckets[bucket].entries[e] = entry
        while s.buckets[bucket].entries.count > ReleaseSample.limit, s.buckets[bucket].level < 63 {
            s.buckets[bucket].raise(to: s.buckets[bucket].level + 1)
            s.levels[bucket] = Int32(s.buckets[bucket].level)
        }
    }

    /// The stretch's id of the version a tag names (0 for none), its text taken from the
    /// worker's ``VersionCache`` the first time the stretch sees the tag.
    private func version(tag: UInt32) -> UInt16 {
        guard tag != 0 else { return 0 }
        let index = Int(tag & 0xFFFF) - 1
        if tag >> 16 == state.pointee.taggedGeneration, index < state.pointee.tagIDs.count {
            let known = state.pointee.tagIDs[index]
            if known != 0 { return known }
        }
        guard let text = versions.text(ofTag: tag) else {
            state.pointee.approximate = true  // a tag of a cache since emptied
            return 0
        }
        if tag >> 16 != state.pointee.taggedGeneration {
            state.pointee.taggedGeneration = tag >> 16
            state.pointee.tagIDs = []
        }
        if index >= state.pointee.tagIDs.count {
            state.pointee.tagIDs.append(contentsOf: repeatElement(0, count: index + 1 - state.pointee.tagIDs.count))
        }
        var id = UInt16(state.pointee.versionNames.firstIndex(of: text) ?? 0)
        if id == 0 {
            guard state.pointee.versionNames.count <= ReleaseSample.maxVersions else {
                state.pointee.approximate = true
                return 0
            }
            id = UInt16(state.pointee.versionNames.count)
            state.pointee.versionNames.append(text)
        }
        state.pointee.tagIDs[index] = id
        return id
    }
}
