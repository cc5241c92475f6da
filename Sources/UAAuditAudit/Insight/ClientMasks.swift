/// Client hash → the kinds of request it made (``ClientSample``'s mask bits): the masks of one
/// hour's ``ClientSet``.
///
/// Two parallel arrays sorted by hash (9 bytes a client), so that a chunk's clients of an hour,
/// handed over sorted by the worker that read it (``ClientSample/finish()``), join the hour in
/// one linear merge rather than one hashed insert each, and the clients a sampling level keeps
/// (those below a hash threshold, see ``ClientSample/keeps(_:level:)``) are a prefix: raising the
/// level cuts the arrays. Iteration is in hash order, which is also the state file's order.
package struct ClientMasks: Sendable, Equatable {
    private var keys: [UInt64] = []
    private var marks: [UInt8] = []

    init() {}

    package var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    /// The index of the first hash not below `hash` (the count when none is).
    private func lowerBound(_ hash: UInt64) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < hash { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The mask of `hash`, nil when absent.
    subscript(hash: UInt64) -> UInt8? {
        let i = lowerBound(hash)
        return i < keys.count && keys[i] == hash ? marks[i] : nil
    }

    /// Adds `mask`'s bits to the entry of `hash`, creating it (at the end in one step when
    /// hashes come ascending, as a state file stores them; else in its place).
    mutating func formUnion(_ hash: UInt64, _ mask: UInt8) {
        if let last = keys.last, last >= hash {
            let i = lowerBound(hash)
            if keys[i] == hash {
                marks[i] |= mask
            } else {
                keys.insert(hash, at: i)
                marks.insert(mask, at: i)
            }
            return
        }
        keys.append(hash)
        marks.append(mask)
    }

    /// Makes room for `additional` more entries at once.
    mutating func reserve(additional: Int) {
        keys.reserveCapacity(keys.count + additional)
        marks.reserveCapacity(marks.count + additional)
    }

    /// Calls `body` with every (hash, mask), by ascending hash.
    package func forEachEntry(_ body: (UInt64, UInt8) -> Void) {
        for i in keys.indices { body(keys[i], marks[i]) }
    }

    /// Keeps the entries whose hash `isKept` says yes to, which must hold for a prefix of the
    /// hashes (as a sampling level's threshold does): the arrays are cut where it stops holding.
    /// A cut of more than half also gives back the room.
    mutating func keepPrefix(while isKept: (UInt64) -> Bool) {
        var (low, high) = (0, keys.count)
        while low < high {
            let mid = (low + high) / 2
            if isKept(keys[mid]) { low = mid + 1 } else { high = mid }
        }
        guard low < keys.count else { return }
        if low * 2 < keys.capacity {
            keys = Array(keys[..<low])
            marks = Array(marks[..<low])
        } else {
            keys.removeSubrange(low...)
            marks.removeSubrange(low...)
        }
    }

    /// Every hash, ascending.
    var sortedKeys: [UInt64] { keys }

    /// Merges in the first `run.count` of a chunk's entries for this hour: ascending packed
    /// entries as ``ClientSample`` keeps them (hash in the bits of ``ClientSample/hashMask``,
    /// mask in the low 2), none repeated.
    mutating func merge(sortedRun run: UnsafeBufferPointer<UInt64>) {
        guard !run.isEmpty else { return }
        let hashMask = ClientSample.hashMask
        merge(otherCount: run.count) { j in (run[j] & hashMask, UInt8(truncatingIfNeeded: run[j] & 3)) }
    }

    /// Merges in the entries of `other` (each hash once, masks joined).
    mutating func formUnion(_ other: ClientMasks) {
        guard !other.isEmpty else { return }
        guard !isEmpty else {
            self = other
            return
        }
        merge(otherCount: other.count) { j in (other.keys[j], other.marks[j]) }
    }

    /// One linear merge of these entries with `otherCount` ascending ones, into arrays sized
    /// for both at once.
    @inline(__always)
    private mutating func merge(otherCount: Int, _ entry: (Int) -> (UInt64, UInt8)) {
        guard otherCount > 0 else { return }
        let total = keys.count + otherCount
        let (oldKeys, oldMarks) = (keys, marks)
        var written = 0
        var newKeys: [UInt64] = []
        let newMarks = [UInt8](unsafeUninitializedCapacity: total) { markOut, markCount in
            newKeys = [UInt64](unsafeUninitializedCapacity: total) { keyOut, keyCount in
                oldKeys.withUnsafeBufferPointer { mine in
                    oldMarks.withUnsafeBufferPointer { mineMarks in
                        var (i, j, w) = (0, 0, 0)
                        var next = entry(0)
                        while i < mine.count {
                            let a = mine[i]
                            if a < next.0 {
                                keyOut[w] = a
                                markOut[w] = mineMarks[i]
                                i += 1
                            } else {
                                keyOut[w] = next.0
                                if a == next.0 {
                                    markOut[w] = mineMarks[i] | next.1
                                    i += 1
                                } else {
                                    markOut[w] = next.1
                                }
                                j += 1
                                if j == otherCount {
                                    w += 1
                                    break
                                }
                                next = entry(j)
                            }
                            w += 1
                        }
                        while i < mine.count {
                            keyOut[w] = mine[i]
                            markOut[w] = mineMarks[i]
                            (i, w) = (i + 1, w + 1)
                        }
                        while j < otherCount {
                            let e = entry(j)
                            keyOut[w] = e.0
                            markOut[w] = e.1
                            (j, w) = (j + 1, w + 1)
                        }
                        written = w
                    }
                }
                keyCount = written
            }
            markCount = written
        }
        keys = newKeys
        marks = newMarks
    }
}
