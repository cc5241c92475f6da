import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Issue 29: the fingerprints of the last lines read, and the walk that finds where a log cut
/// in place stops holding what was read.
@Suite struct LineFingerprintsTests {
    /// `count` numbered lines of about 60 bytes, the `long`-th (if any) 100 KiB long.
    static func text(_ count: Int, first: Int = 1, long: Int? = nil) -> [UInt8] {
        var out: [UInt8] = []
        for n in first..<(first + count) {
            let padding = n == long ? String(repeating: "x", count: 100 << 10) : String(repeating: "y", count: n % 40)
            out += Array("line \(n) GET /p?n=\(n) \(padding)\n".utf8)
        }
        return out
    }

    static func file(_ bytes: [UInt8]) -> LogFile {
        LogFile(path: "/logs/access.log", inode: MemoryInode(number: 7, bytes: bytes), modified: 1)
    }

    /// The start of each line of `bytes`, and its end.
    static func lineStarts(_ bytes: [UInt8]) -> [Int64] {
        [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { Int64($0 + 1) }
    }

    @Test func theSameLineHasTheSameFingerprintWhereverReadingStartsOrBlocksFall() throws {
        let bytes = Self.text(3000, long: 1200)
        let file = Self.file(bytes)
        let whole = try #require(try LineFingerprints.extend(nil, end: 0, file: file, to: Int64(bytes.count)))
        #expect(whole.count == 3000)
        #expect(whole.start == 0)
        // Read on in steps that end at line ends, from the middle of the long line's block.
        let ends = Self.lineStarts(bytes)
        var stepped = try #require(try LineFingerprints.extend(nil, end: 0, file: file, to: ends[7]))
        for step in [1199, 1200, 1201, 2500, 3000] {
            stepped = try #require(
                try LineFingerprints.extend(stepped, end: stepped.endIn(bytes), file: file, to: ends[step]))
        }
        #expect(stepped == whole)
        // Different lines, different fingerprints (no collision among these 3,000).
        #expect(Set((0..<whole.count).map { whole[$0] }).count == 3000)
    }

    @Test func atMostTheLastMaxLinesAreKeptAndTheirStartFollows() throws {
        let max = LineFingerprints.maxLines
        let bytes = Self.text(max + 30_000)
        let file = Self.file(bytes)
        let starts = Self.lineStarts(bytes)
        let fresh = try #require(try LineFingerprints.extend(nil, end: 0, file: file, to: Int64(bytes.count)))
        #expect(fresh.count == max)
        #expect(fresh.start == starts[30_000])
        // The same reached in steps: old lines dropped from the front, new ones pushing all out.
        for steps in [
            [40_000, max + 30_000], [10, max + 10, max + 30_000], [max, max + 1, max + 30_000],
            Array(stride(from: 5000, through: max + 30_000, by: 5000)) + [max + 30_000],
        ] {
            var lines: RunState.RecentLines? = nil
            var end: Int64 = 0
            for step in steps {
                lines = try LineFingerprints.extend(lines, end: end, file: file, to: starts[step])
                end = starts[step]
                #expect(lines?.count == Swift.min(step, max))
                #expect(lines?.start == starts[Swift.max(0, step - max)])
            }
            #expect(lines == fresh, "\(steps)")
        }
    }

    @Test func aFileShorterThanPlannedGivesNil() throws {
        let bytes = Self.text(100)
        let file = Self.file(Array(bytes.prefix(1000)))
        #expect(try LineFingerprints.extend(nil, end: 0, file: file, to: Int64(bytes.count)) == nil)
    }

    /// Cut in place at every line boundary of 400 lines read, from each of several verified
    /// prefixes below the cut, then 50 lines written: the cut is found at its very line.
    @Test func theWalkFindsTheCutAtEveryLine() throws {
        let old = Self.text(400)
        let starts = Self.lineStarts(old)
        let lines = try #require(try LineFingerprints.extend(nil, end: 0, file: Self.file(old), to: Int64(old.count)))
        for cut in 0...400 {
            let now = Array(old.prefix(Int(starts[cut]))) + Self.text(50, first: 1000)
            let file = Self.file(now)
            for verified in Set([0, cut / 2, cut].map { starts[$0] }) {
                let found = try LineFingerprints.cut(lines, verified: verified, file: file, size: Int64(now.count))
                #expect(found == .found(end: starts[cut], lines: lines.prefix(cut)), "cut \(cut), verified \(verified)")
            }
            // A verified prefix inside a line (a chunk cut in an overlong line).
            if cut > 0 {
                let inside = starts[cut] - 3
                #expect(
                    try LineFingerprints.cut(lines, verified: inside, file: file, size: Int64(now.count))
                        == .found(end: starts[cut], lines: lines.prefix(cut)))
            }
            // Nothing written yet: the end of the file.
            let bare = Array(old.prefix(Int(starts[cut])))
            #expect(
                try LineFingerprints.cut(lines, verified: 0, file: Self.file(bare), size: Int64(bare.count))
                    == .found(end: starts[cut], lines: lines.prefix(cut)))
        }
    }

    /// Fingerprints that start after the verified prefix: a line there that matches proves the
    /// cut after it; one that does not, or no line starting there, puts it at or before it.
    @Test func fingerprintsStartingAfterTheVerifiedPrefix() throws {
        let old = Self.text(400)
        let starts = Self.lineStarts(old)
        let file = Self.file(old)
        let all = try #require(try LineFingerprints.extend(nil, end: 0, file: file, to: Int64(old.count)))
        let last = try #require(try LineFingerprints.extend(nil, end: starts[200], file: file, to: Int64(old.count)))
        #expect(last.count == 200)
        #expect(last.hashes == Array(all.hashes.suffix(200 * LineFingerprints.width)))
        for (cut, expected) in [
            (300, LineFingerprints.Cut.found(end: starts[300], lines: last.prefix(100))),
            (201, .found(end: starts[201], lines: last.prefix(1))),
            (200, .atOrBefore(starts[200])),
            (150, .atOrBefore(starts[200])),
        ] {
            let now = Array(old.prefix(Int(starts[cut]))) + Self.text(100, first: 1000)
            #expect(
                try LineFingerprints.cut(last, verified: starts[100], file: Self.file(now), size: Int64(now.count))
                    == expected, "cut \(cut)")
        }
        // Shorter than the first line fingerprinted.
        let short = Array(old.prefix(Int(starts[150])))
        #expect(
            try LineFingerprints.cut(last, verified: starts[100], file: Self.file(short), size: Int64(short.count))
                == .atOrBefore(starts[200]))
    }

    @Test func theStateKeepsThemAsBase64AndRejectsAnImpossibleStart() throws {
        var tracked = RunState.Tracked(
            identity: FileIdentity(device: 1, inode: 2, fingerprint: "", fingerprintBytes: 0), offset: 100, size: 100,
            modified: 1, path: "/logs/access.log")
        tracked.recentLines = RunState.RecentLines(start: 40, hashes: [1, 2, 3, 4, 5, 6])
        var state = RunState()
        state.logs["/logs/access.log"] = RunState.LogState(current: tracked)
        let bytes = try state.encoded()
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"hashes\" : \"AQIDBAUG\""))
        let back = try RunState.decode(bytes, path: "state.json")
        #expect(back.logs["/logs/access.log"]?.current?.recentLines?.count == 2)
        #expect(back.logs["/logs/access.log"]?.current?.recentLines?[1] == 0x04_0506)
        #expect(back == state)
        tracked.recentLines?.start = 101
        state.logs["/logs/access.log"] = RunState.LogState(current: tracked)
        #expect(throws: StateError.self) { try RunState.decode(try state.encoded(), path: "state.json") }
    }
}

extension RunState.RecentLines {
    /// Where these lines end in `bytes` (they start at `start`).
    func endIn(_ bytes: [UInt8]) -> Int64 {
        var end = Int(start)
        for _ in 0..<count { end = bytes[end...].firstIndex(of: 0x0A)! + 1 }
        return Int64(end)
    }
}
