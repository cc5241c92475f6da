import UAAuditInput

/// Remembers the class and family of each distinct UA as logged, so each is decoded, matched and
/// normalised once.
///
/// Keyed on the raw (still escaped) field bytes borrowed from the line: a hit costs a hash and a
/// compare, no copy. Bounded: when full, it is emptied and starts again. Family ids index the
/// ``families`` table, which a family enters only when a tally tracks it
/// (``addPendingFamily()``); it is emptied between chunks (``startChunk()``).
final class UACache {
    static let defaultFamilies = 4_096
    /// The most distinct families one chunk's tally tracks (first seen, first kept); the rest
    /// of its requests are counted as untracked families. Half the family table, so that a
    /// table emptied when more than this is left over at a chunk's start (``startChunk()``)
    /// never refuses a family the chunk tracks (a family enters the table only when a tally
    /// tracks it): what a chunk tracks depends on the chunk alone, not on which chunks the
    /// same thread read before it, and a flood of new families in one hour leaves the others room.
    static let familiesPerChunk = defaultFamilies / 2

    static let defaultEntries = 16_384
    static let defaultArenaBytes = 2 << 20
    /// UAs longer than this are classified every time rather than cached.
    static let maxKeyBytes = 16_384

    private let table: ByteTable
    /// Family bytes → id (the entry index); shared with the tallies that count by family.
    let families: ByteTable
    private let familyScratch: UnsafeMutableBufferPointer<UInt8>
    private let classifier: Classifier
    private let escape: EscapeMode
    /// Room for one decoded UA: the longest line the reader hands out (``LineReader``).
    private let scratch: UnsafeMutableBufferPointer<UInt8>
    private(set) var misses = 0

    /// The app versions of app-class UAs (``VersionCache``), and which class indices are the
    /// app's: an app UA's entry carries its version's id (bits 40 up, see ``versionTag(_:)``).
    private let versions: VersionCache?
    private let appClass: [Bool]

    init(
        classifier: Classifier, escape: EscapeMode, entries: Int = defaultEntries,
        arenaBytes: Int = defaultArenaBytes, maxLineBytes: Int, versions: VersionCache? = nil, appClass: [Bool] = []
    ) {
        self.versions = versions
        self.appClass = appClass
        self.classifier = classifier
        self.escape = escape
        self.table = ByteTable(maxEntries: entries, arenaBytes: arenaBytes)
        // Room for every family at its longest, so that neither half of the table can fill
        // before the chunk has seen more families than it tracks (see ``startChunk()``).
        self.families = ByteTable(
            maxEntries: UACache.defaultFamilies, arenaBytes: UACache.defaultFamilies * UAFamily.maxBytes)
        self.scratch = .allocate(capacity: max(maxLineBytes, 16))
        self.familyScratch = .allocate(capacity: UAFamily.maxBytes)
    }

    deinit {
        scratch.deallocate()
        familyScratch.deallocate()
    }

    /// Called before each chunk: empties the family table (and the cache whose entries name its
    /// ids) when it holds more than ``familiesPerChunk`` families. The caller has absorbed every
    /// tally that refers to the old ids.
    func startChunk() {
        if families.count > UACache.familiesPerChunk || families.bytesUsed > families.arenaBytes / 2 {
            families.removeAll()
            table.removeAll()
        }
    }

    /// The class index of a present (non-missing) raw UA field, or ``Classifier/failed``.
    @inline(__always)
    func classOf(raw: UnsafeRawBufferPointer) -> UInt8 {
        UInt8(truncatingIfNeeded: lookup(raw: raw))
    }

    /// A UA whose family is not in the family table (yet): the tally decides whether it is
    /// added (``addPendingFamily()``), so that only families some tally tracks take room.
    static let unassignedFamily: UInt32 = .max - 1

    /// The cache entry and family bytes of the last lookup whose family is unassigned.
    private var pendingEntry: Int?
    private var pendingFamilyCount = 0
    private var pendingFamilyHash: UInt64 = 0

    /// The class index (low 8 bits) and family id (the 32 bits above) of a present raw UA
    /// field; the family id is ``unassignedFamily`` when its family is not in the table, and
    /// ``addPendingFamily()`` may then add it.
    @inline(__always)
    func lookup(raw: UnsafeRawBufferPointer) -> UInt64 { lookup(raw: raw, hash: prepare(raw: raw)) }

    /// The hash ``lookup(raw:hash:)`` takes for a present raw UA field, with the fetch of the
    /// cache's slot for it started: called early in a line's work, it lets that fetch run while
    /// the line's other fields are read (0 for a UA too long to cache).
    @inline(__always)
    func prepare(raw: UnsafeRawBufferPointer) -> UInt64 {
        guard raw.count <= UACache.maxKeyBytes else { return 0 }
        let hash = ByteHash.table(raw)
        table.prefetch(hash: hash)
        return hash
    }

    /// ``lookup(raw:)`` with the hash ``prepare(raw:)`` gave for `raw`.
    @inline(__always)
    func lookup(raw: UnsafeRawBufferPointer, hash: UInt64) -> UInt64 {
        if raw.count > UACache.maxKeyBytes { return lookup(long: raw) }
        if let e = table.find(raw, hash: hash) {
            let found = UInt64(bitPattern: table.values[e])
            if UInt32(truncatingIfNeeded: found >> 8) != UACache.unassignedFamily { return found }
            return lookAgain(e, raw: raw, found: found)
        }
        return add(raw, hash: hash)
    }

    /// ``lookup(raw:)`` of a UA too long to cache: classified every time.
    @inline(never)
    private func lookup(long raw: UnsafeRawBufferPointer) -> UInt64 {
        pendingEntry = nil
        return classifyRaw(raw)
    }

    /// ``lookup(raw:)`` of a cached UA whose family was not in the table: it may have been
    /// added since, so it is looked for again (no pattern is matched).
    @inline(never)
    private func lookAgain(_ e: Int, raw: UnsafeRawBufferPointer, found: UInt64) -> UInt64 {
        let again = familyOf(raw, class: UInt8(truncatingIfNeeded: found))
        table.values[e] = Int64(bitPattern: again)
        pendingEntry = e
        return again
    }

    /// ``lookup(raw:)`` of a UA not in the cache: classified and added (the cache emptied first
    /// when it is full).
    @inline(never)
    private func add(_ raw: UnsafeRawBufferPointer, hash: UInt64) -> UInt64 {
        let result = classifyRaw(raw)
        var e = table.insert(raw, hash: hash)
        if e == nil {
            table.removeAll()
            e = table.insert(raw, hash: hash)
        }
        if let e { table.values[e] = Int64(bitPattern: result) }
        // Only read by addPendingFamily() right after a lookup that came back unassigned.
        pendingEntry = e
        return result
    }

    /// Adds the family of the last lookup (which came back ``unassignedFamily``) to the table;
    /// its id, or nil when the table is full.
    func addPendingFamily() -> UInt32? {
        let family = UnsafeRawBufferPointer(
            rebasing: UnsafeMutableRawBufferPointer(familyScratch)[..<pendingFamilyCount])
        guard
            let id = families.find(family, hash: pendingFamilyHash) ?? families.insert(family, hash: pendingFamilyHash)
        else { return nil }
        if let e = pendingEntry {
            let value = UInt64(bitPattern: table.values[e])
            let kept = value & (0xFF | UACache.versionMask)
            table.values[e] = Int64(bitPattern: kept | UInt64(UInt32(id)) << 8)
        }
        pendingEntry = nil
        return UInt32(id)
    }

    private func classifyRaw(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        misses += 1
        let n = Unescape.decode(raw, mode: escape, into: scratch)
        let ua = UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(scratch)[..<n])
        return family(of: ua, class: classifier.classify(ua))
    }

    /// The class and family of a raw UA whose class is known.
    private func familyOf(_ raw: UnsafeRawBufferPointer, class cls: UInt8) -> UInt64 {
        let n = Unescape.decode(raw, mode: escape, into: scratch)
        return family(of: UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(scratch)[..<n]), class: cls)
    }

    /// The class and the family id of a decoded UA (``unassignedFamily`` when the family is
    /// not in the table; its bytes stay in the scratch for ``addPendingFamily()``).
    private func family(of ua: UnsafeRawBufferPointer, class cls: UInt8) -> UInt64 {
        pendingFamilyCount = UAFamily.normalize(ua, into: familyScratch)
        let family = UnsafeRawBufferPointer(
            rebasing: UnsafeMutableRawBufferPointer(familyScratch)[..<pendingFamilyCount])
        pendingFamilyHash = ByteHash.table(family)
        let id = families.find(family, hash: pendingFamilyHash).map { UInt32($0) } ?? UACache.unassignedFamily
        var version: UInt64 = 0
        if let versions, Int(cls) < appClass.count, appClass[Int(cls)] {
            version = UInt64(versions.tag(ofDecoded: ua)) << 40
        }
        return UInt64(cls) | UInt64(id) << 8 | version
    }

    /// The bits of a lookup's result that hold an app UA's version tag.
    static let versionMask: UInt64 = 0xFF_FFFF << 40

    /// The version tag of a lookup's result (``VersionCache/tag(ofDecoded:)``): 0 for a UA
    /// that is not an app class's or names no version.
    @inline(__always)
    static func versionTag(_ found: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: found >> 40) }
}
