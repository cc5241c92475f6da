/// Remembers the class of each distinct UA as logged, so each is decoded and matched once.
///
/// Keyed on the raw (still escaped) field bytes borrowed from the line: a hit costs a hash and a
/// compare, no copy. Bounded: when full, it is emptied and starts again.
public final class UACache {
    public static let defaultEntries = 32_768
    public static let defaultArenaBytes = 4 << 20
    /// UAs longer than this are classified every time rather than cached.
    public static let maxKeyBytes = 16_384

    private let table: ByteTable
    private let classifier: Classifier
    private let escape: EscapeMode
    private let scratch: UnsafeMutablePointer<UInt8>
    private let scratchCapacity: Int
    public private(set) var misses = 0

    public init(
        classifier: Classifier, escape: EscapeMode, entries: Int = defaultEntries,
        arenaBytes: Int = defaultArenaBytes, maxLineBytes: Int
    ) {
        self.classifier = classifier
        self.escape = escape
        self.table = ByteTable(maxEntries: entries, arenaBytes: arenaBytes)
        self.scratchCapacity = max(maxLineBytes, 16)
        self.scratch = .allocate(capacity: scratchCapacity)
    }

    deinit { scratch.deallocate() }

    /// The class index of a present (non-missing) raw UA field, or ``Classifier/failed``.
    @inline(__always)
    public func classOf(raw: UnsafeRawBufferPointer) -> UInt8 {
        if raw.count > UACache.maxKeyBytes { return classifyRaw(raw) }
        let hash = ByteHash.hash(raw)
        if let e = table.find(raw, hash: hash) { return UInt8(truncatingIfNeeded: table.values[e]) }
        let result = classifyRaw(raw)
        var e = table.insert(raw, hash: hash)
        if e == nil {
            table.removeAll()
            e = table.insert(raw, hash: hash)
        }
        if let e { table.values[e] = Int64(result) }
        return result
    }

    private func classifyRaw(_ raw: UnsafeRawBufferPointer) -> UInt8 {
        misses += 1
        let n = Unescape.decode(raw, mode: escape, into: scratch)
        return classifier.classify(UnsafeRawBufferPointer(start: scratch, count: n))
    }
}
