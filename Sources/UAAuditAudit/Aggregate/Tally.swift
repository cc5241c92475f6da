import UAAuditInput

/// The counts of one stretch of input (a chunk of a file, or a whole stream), kept by one thread.
///
/// Per hour bucket: one counter per class, then `errors` (UAs a pattern could not finish on),
/// then `out_of_scope`. The alert class's UAs are counted per bucket in a bounded table keyed on
/// the raw field bytes; UAs that do not fit are counted as untracked, and the top list of their
/// hour is then marked approximate.
///
/// After those, per bucket, ``StatusCounts/slots`` counters per class (the responses' statuses).
/// Beside the counters: requests per (bucket, UA family, class), the alert class's request
/// paths, and the clients seen per kind of request (``ClientSample``), all in bounded tables
/// whose overflow is counted so the report can say what is approximate.
package final class Tally {
    package struct Sample: Sendable, Equatable {
        /// 1-based line number within this tally's stretch of input.
        var line: Int64
        var text: [UInt8]
        var reason: MalformedReason
    }

    let classCount: Int
    let width: Int
    var errorsSlot: Int { classCount }
    var outOfScopeSlot: Int { classCount + 1 }
    /// The first status counter of a class.
    @inline(__always)
    func statusSlot(_ cls: Int) -> Int { classCount &+ 2 &+ cls &* StatusCounts.slots }

    private(set) var hours: [HourKey] = []
    /// `width` counters per bucket, grown by doubling; a raw buffer so the per-line
    /// increment has no copy-on-write or bounds check.
    private var storage: UnsafeMutablePointer<Int64>
    private var storageCapacity: Int
    private(set) var untracked: [Int64] = []
    /// Per bucket: requests whose family, or alert-class path, did not fit its table.
    private(set) var untrackedFamilies: [Int64] = []
    private(set) var untrackedPaths: [Int64] = []
    package var lines: Int64 = 0
    /// The newest request time counted (seconds since the epoch), Int64.min when none.
    var newest = Int64.min
    package private(set) var malformed: Int64 = 0
    /// The number of its first malformed line (from 1), nil when none.
    private(set) var firstMalformed: Int64?
    /// Lines stamped after ``ScanConfiguration/futureAfter``: counted here, in no hour.
    var future: Int64 = 0
    /// Those lines per hour: one counter per class, then errors, then out of scope (the
    /// first ``outOfScopeSlot`` + 1 slots of a bucket). Rare (a wrong clock), so a dictionary.
    var futureHours: [HourKey: [Int64]] = [:]
    private(set) var samples: [Sample] = []
    let alertUAs: ByteTable
    /// Requests per (bucket << 40 | family id << 8 | class).
    let familyCounts: CounterTable
    /// The family table the ids refer to (the worker's ``UACache/families``), if counted.
    let families: ByteTable?
    /// The bytes of each family id ``familyCounts`` uses, copied out of ``families`` when the
    /// stretch ends (``detachFamilies()``): the worker may then go on to its next chunk, which
    /// may empty its family table, before this tally is absorbed.
    private(set) var familyNames: [UInt32: [UInt8]]?
    /// Alert-class request paths as logged (no query), tagged `bucket * 2 + (401/403 ? 1 : 0)`.
    let alertPaths: ByteTable
    let clients: ClientSample?
    /// The app versions and alert families of a sample of each hour's clients, when the log
    /// has a client key (``ReleaseSample``).
    let releases: ReleaseSample?

    private let sampleLimit: Int
    /// Per bucket: what it holds of the shared tables (entries; key bytes for the byte tables).
    /// No bucket may take more than a quarter of a table, so that a flood of distinct UAs,
    /// paths or families in one hour cannot leave the next hour of the same chunk without
    /// its lists (an alerting hour keeps its own top UAs and paths).
    private var quotaUAs: [(entries: Int, bytes: Int)] = []
    private var quotaPaths: [(entries: Int, bytes: Int)] = []
    private var quotaFamilies: [Int] = []
    /// One bit per family id: tracked in this tally (see ``tracks(family:)``).
    private let familySeen: UnsafeMutablePointer<UInt64>
    private let familyWords: Int
    private var trackedFamilies = 0
    private var index: [HourKey: Int] = [:]
    private var lastKey = HourKey(localHour: Int64.min, offsetMinutes: 0)
    private var lastBucket = -1

    package static let sampleTextBytes = 512

    init(
        classCount: Int, sampleLimit: Int, alertTableEntries: Int = 16_384, alertArenaBytes: Int = 2 << 20,
        families: ByteTable? = nil, clientEntries: Int = 0, clientPool: ClientSample.Pool? = nil,
        releases: ReleaseSample? = nil
    ) {
        self.releases = releases
        self.classCount = classCount
        self.width = classCount + 2 + classCount * StatusCounts.slots
        self.sampleLimit = sampleLimit
        self.alertUAs = ByteTable(maxEntries: alertTableEntries, arenaBytes: alertArenaBytes)
        self.families = families
        self.familyCounts = CounterTable(maxEntries: families == nil ? 1 : 16_384)
        self.alertPaths = ByteTable(maxEntries: 4_096, arenaBytes: 512 << 10)
        self.clients = clientEntries > 0 ? ClientSample(maxEntries: clientEntries, pool: clientPool) : nil
        self.storageCapacity = width * 64
        self.storage = .allocate(capacity: storageCapacity)
        self.familyWords = ((families?.maxEntries ?? 0) + 63) / 64
        self.familySeen = .allocate(capacity: max(familyWords, 1))
        familySeen.initialize(repeating: 0, count: max(familyWords, 1))
    }

    deinit {
        storage.deallocate()
        familySeen.deallocate()
    }

    /// Whether this tally counts family `id` by name: the first ``UACache/familiesPerChunk``
    /// distinct families it sees are tracked, later new ones are not (their requests count as
    /// untracked families). Deterministic per stretch of input, whatever thread reads it.
    @inline(__always)
    func tracks(family id: UInt32) -> Bool {
        let i = Int(id)
        let word = i &>> 6
        guard word < familyWords else { return false }
        let bit: UInt64 = 1 &<< UInt64(i & 63)
        if familySeen[word] & bit != 0 { return true }
        if trackedFamilies >= UACache.familiesPerChunk { return false }
        familySeen[word] |= bit
        trackedFamilies += 1
        return true
    }

    /// About how much memory the tally holds once read (``ChunkPipeline`` lets a light one wait
    /// for its merge beside the workers' next chunks): the key bytes and entries of its UA, path
    /// and family tables, its sorted clients and its counters. An estimate from what it holds
    /// (8 bytes a client, up to 64 a table entry), not a measure of the allocator's pages.
    var heldBytes: Int {
        alertUAs.bytesUsed + alertPaths.bytesUsed + 64 * (alertUAs.count + alertPaths.count)
            + 24 * familyCounts.count + 8 * (clients?.count ?? 0) + 8 * storageCapacity
    }

    /// The counters of every bucket, `width` per bucket, in bucket order.
    var counts: [Int64] { Array(UnsafeBufferPointer(start: storage, count: hours.count * width)) }

    /// The bucket index of `key`, created on first use.
    @inline(__always)
    func bucket(_ key: HourKey) -> Int {
        if key == lastKey { return lastBucket }
        let b: Int
        if let found = index[key] {
            b = found
        } else {
            b = hours.count
            if (b + 1) * width > storageCapacity {
                let bigger = UnsafeMutablePointer<Int64>.allocate(capacity: storageCapacity * 2)
                bigger.update(from: storage, count: b * width)
                storage.deallocate()
                storage = bigger
                storageCapacity *= 2
            }
            (storage + b * width).initialize(repeating: 0, count: width)
            hours.append(key)
            quotaUAs.append((0, 0))
            quotaPaths.append((0, 0))
            quotaFamilies.append(0)
            untracked.append(0)
            untrackedFamilies.append(0)
            untrackedPaths.append(0)
            index[key] = b
        }
        lastKey = key
        lastBucket = b
        return b
    }

    /// Copies the names of the families this tally counts out of the shared family table.
    func detachFamilies() {
        guard let names = families else { return }
        var copy: [UInt32: [UInt8]] = [:]
        for e in 0..<familyCounts.count {
            let id = UInt32(truncatingIfNeeded: familyCounts.key(e) >> 8)
            if copy[id] == nil { copy[id] = Array(names.key(Int(id))) }
        }
        familyNames = copy
    }

    @inline(__always)
    func count(bucket: Int, slot: Int) {
        storage[bucket &* width &+ slot] &+= 1
    }

    /// Counts one alert-class request's UA (raw bytes as logged) in its bucket.
    @inline(__always)
    func countAlertUA(bucket: Int, raw: UnsafeRawBufferPointer) {
        let hash = ByteHash.table(raw, seed: UInt64(bucket))
        if let e = alertUAs.find(raw, tag: Int32(bucket), hash: hash)
            ?? Tally.insert(raw, tag: Int32(bucket), hash: hash, into: alertUAs, quota: &quotaUAs[bucket])
        {
            alertUAs.values[e] &+= 1
        } else {
            untracked[bucket] &+= 1
        }
    }

    /// Inserts a new key for a bucket within its quota (a quarter of the table's entries and
    /// bytes); nil when the bucket or the table is full.
    private static func insert(
        _ key: UnsafeRawBufferPointer, tag: Int32, hash: UInt64, into table: ByteTable,
        quota: inout (entries: Int, bytes: Int)
    ) -> Int? {
        guard quota.entries < table.maxEntries / 4, quota.bytes + key.count <= table.arenaBytes / 4,
            let e = table.insert(key, tag: tag, hash: hash)
        else { return nil }
        quota.entries += 1
        quota.bytes += key.count
        return e
    }

    /// Counts a request of (bucket, family id, class) in ``familyCounts`` when the family is
    /// tracked and the bucket has room; false when it is not counted by family.
    @inline(__always)
    func countFamily(bucket: Int, family: UInt32, cls: Int) -> Bool {
        let key = UInt64(bucket) << 40 | UInt64(family) << 8 | UInt64(cls & 0xFF)
        if familyCounts.addExisting(key) { return true }
        guard quotaFamilies[bucket] < Tally.familiesPerBucket, tracks(family: family), familyCounts.add(key) else {
            return false
        }
        quotaFamilies[bucket] += 1
        return true
    }

    /// Whether a family new to the chunk would be tracked in `bucket` (room in the bucket's
    /// quota and in the chunk's).
    @inline(__always)
    func canTrackNewFamily(bucket: Int) -> Bool {
        quotaFamilies[bucket] < Tally.familiesPerBucket && trackedFamilies < UACache.familiesPerChunk
    }

    /// The most (family, class) pairs one bucket of a chunk counts: a quarter of the families
    /// a chunk tracks.
    static let familiesPerBucket = UACache.familiesPerChunk / 4

    /// Counts a request's status (3 validated digits) for its class.
    @inline(__always)
    func countStatus(bucket: Int, cls: Int, status: UnsafeRawBufferPointer) {
        let (family, exact) = StatusCounts.slots(of: status)
        let base = bucket &* width &+ statusSlot(cls)
        storage[base &+ family] &+= 1
        if exact >= 0 { storage[base &+ exact] &+= 1 }
    }

    /// Counts a request whose family did not fit the family tables (the sink counts the others
    /// in ``familyCounts``, keyed `bucket << 40 | family id << 8 | class`).
    func countUntrackedFamily(bucket: Int) {
        untrackedFamilies[bucket] &+= 1
    }

    /// Counts an alert-class request's path (as logged, without the query).
    @inline(__always)
    func countAlertPath(bucket: Int, path: UnsafeRawBufferPointer, rejected: Bool) {
        let tag = Int32(truncatingIfNeeded: bucket &* 2 &+ (rejected ? 1 : 0))
        let hash = ByteHash.table(path, seed: UInt64(tag))
        if let e = alertPaths.find(path, tag: tag, hash: hash)
            ?? Tally.insert(path, tag: tag, hash: hash, into: alertPaths, quota: &quotaPaths[bucket])
        {
            alertPaths.values[e] &+= 1
        } else {
            untrackedPaths[bucket] &+= 1
        }
    }

    func countMalformed(line: Int64, text: UnsafeRawBufferPointer, reason: MalformedReason) {
        malformed += 1
        if firstMalformed == nil { firstMalformed = line }
        if samples.count < sampleLimit {
            samples.append(Sample(line: line, text: Array(text.prefix(Tally.sampleTextBytes)), reason: reason))
        }
    }

    func value(bucket b: Int, slot: Int) -> Int64 { storage[b * width + slot] }
}

/// Why a line was counted as malformed.
package enum MalformedReason: String, Sendable, Codable {
    case format = "does not match the log format"
    case tooLong = "longer than the line limit (see --max-line-bytes)"
}
