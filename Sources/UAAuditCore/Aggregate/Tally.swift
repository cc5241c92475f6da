/// The counts of one stretch of input (a chunk of a file, or a whole stream), kept by one thread.
///
/// Per hour bucket: one counter per class, then `errors` (UAs a pattern could not finish on),
/// then `out_of_scope`. The alert class's UAs are counted per bucket in a bounded table keyed on
/// the raw field bytes; UAs that do not fit are counted as untracked, and the top list of their
/// hour is then marked approximate.
public final class Tally {
    public struct Sample: Sendable, Equatable {
        /// 1-based line number within this tally's stretch of input.
        public var line: Int64
        public var text: [UInt8]
        public var reason: MalformedReason
    }

    public let classCount: Int
    public let width: Int
    public var errorsSlot: Int { classCount }
    public var outOfScopeSlot: Int { classCount + 1 }

    public private(set) var hours: [HourKey] = []
    /// `width` counters per bucket, grown by doubling; a raw buffer so the per-line
    /// increment has no copy-on-write or bounds check.
    private var storage: UnsafeMutablePointer<Int64>
    private var storageCapacity: Int
    public private(set) var untracked: [Int64] = []
    public var lines: Int64 = 0
    /// The newest request time counted (seconds since the epoch), Int64.min when none.
    public var newest = Int64.min
    public private(set) var malformed: Int64 = 0
    public private(set) var samples: [Sample] = []
    public let alertUAs: ByteTable

    private let sampleLimit: Int
    private var index: [HourKey: Int] = [:]
    private var lastKey = HourKey(localHour: Int64.min, offsetMinutes: 0)
    private var lastBucket = -1

    public static let sampleTextBytes = 512

    public init(classCount: Int, sampleLimit: Int, alertTableEntries: Int = 16_384, alertArenaBytes: Int = 2 << 20) {
        self.classCount = classCount
        self.width = classCount + 2
        self.sampleLimit = sampleLimit
        self.alertUAs = ByteTable(maxEntries: alertTableEntries, arenaBytes: alertArenaBytes)
        self.storageCapacity = (classCount + 2) * 64
        self.storage = .allocate(capacity: storageCapacity)
    }

    deinit { storage.deallocate() }

    /// The counters of every bucket, `width` per bucket, in bucket order.
    public var counts: [Int64] { Array(UnsafeBufferPointer(start: storage, count: hours.count * width)) }

    /// The bucket index of `key`, created on first use.
    @inline(__always)
    public func bucket(_ key: HourKey) -> Int {
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
            untracked.append(0)
            index[key] = b
        }
        lastKey = key
        lastBucket = b
        return b
    }

    @inline(__always)
    public func count(bucket: Int, slot: Int) {
        storage[bucket &* width &+ slot] &+= 1
    }

    /// Counts one alert-class request's UA (raw bytes as logged) in its bucket.
    @inline(__always)
    public func countAlertUA(bucket: Int, raw: UnsafeRawBufferPointer) {
        let hash = ByteHash.hash(raw, seed: UInt64(bucket))
        if let e = alertUAs.find(raw, tag: Int32(bucket), hash: hash)
            ?? alertUAs.insert(raw, tag: Int32(bucket), hash: hash)
        {
            alertUAs.values[e] &+= 1
        } else {
            untracked[bucket] &+= 1
        }
    }

    public func countMalformed(line: Int64, text: UnsafeRawBufferPointer, reason: MalformedReason) {
        malformed += 1
        if samples.count < sampleLimit {
            samples.append(Sample(line: line, text: Array(text.prefix(Tally.sampleTextBytes)), reason: reason))
        }
    }

    public func value(bucket b: Int, slot: Int) -> Int64 { storage[b * width + slot] }
}

/// Why a line was counted as malformed.
public enum MalformedReason: String, Sendable, Codable {
    case format = "does not match the log format"
    case tooLong = "longer than the line limit"
}
