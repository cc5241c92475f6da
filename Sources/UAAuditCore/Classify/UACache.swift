/// Remembers the class and family of each distinct UA as logged, so each is decoded, matched and
/// normalised once.
///
/// Keyed on the raw (still escaped) field bytes borrowed from the line: a hit costs a hash and a
/// compare, no copy. Bounded: when full, it is emptied and starts again. Family ids index the
/// ``families`` table, which does not empty (tallies refer to its ids) but refuses new families
/// once full: those UAs get ``untrackedFamily``.
package final class UACache {
    /// The family id of a UA whose family did not fit the bounded family table.
    package static let untrackedFamily: UInt32 = .max
    package static let defaultFamilies = 8_192
    /// The most distinct families one chunk's tally tracks (first seen, first kept); the rest
    /// of its requests are counted as untracked families. Half the family table, so that a
    /// table emptied when more than this is left over at a chunk's start (``startChunk()``)
    /// never refuses a family the chunk tracks: what a chunk tracks depends on the chunk alone,
    /// not on which chunks the same thread read before it.
    package static let familiesPerChunk = defaultFamilies / 2

    package static let defaultEntries = 32_768
    package static let defaultArenaBytes = 4 << 20
    /// UAs longer than this are classified every time rather than cached.
    package static let maxKeyBytes = 16_384

    private let table: ByteTable
    /// Family bytes → id (the entry index); shared with the tallies that count by family.
    package let families: ByteTable
    private let familyScratch: UnsafeMutableBufferPointer<UInt8>
    private let classifier: Classifier
    private let escape: EscapeMode
    /// Room for one decoded UA: the longest line the reader hands out (``LineReader``).
    private let scratch: UnsafeMutableBufferPointer<UInt8>
    package private(set) var misses = 0

    package init(
        classifier: Classifier, escape: EscapeMode, entries: Int = defaultEntries,
        arenaBytes: Int = defaultArenaBytes, maxLineBytes: Int
    ) {
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

    /// The class index (low 8 bits) and family id (the 32 bits above) of a present raw UA field.
    @inline(__always)
    func lookup(raw: UnsafeRawBufferPointer) -> UInt64 {
        if raw.count > UACache.maxKeyBytes { return classifyRaw(raw) }
        let hash = ByteHash.hash(raw)
        if let e = table.find(raw, hash: hash) { return UInt64(bitPattern: table.values[e]) }
        let result = classifyRaw(raw)
        var e = table.insert(raw, hash: hash)
        if e == nil {
            table.removeAll()
            e = table.insert(raw, hash: hash)
        }
        if let e { table.values[e] = Int64(bitPattern: result) }
        return result
    }

    private func classifyRaw(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        misses += 1
        let n = Unescape.decode(raw, mode: escape, into: scratch)
        let ua = UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(scratch)[..<n])
        let cls = classifier.classify(ua)
        let f = UAFamily.normalize(ua, into: familyScratch)
        let family = UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(familyScratch)[..<f])
        let hash = ByteHash.hash(family)
        let id = families.find(family, hash: hash) ?? families.insert(family, hash: hash)
        return UInt64(cls) | UInt64(id.map { UInt32($0) } ?? UACache.untrackedFamily) << 8
    }
}
