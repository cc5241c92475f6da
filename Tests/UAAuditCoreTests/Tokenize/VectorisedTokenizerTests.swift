import CUAScan
import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The C pass (``ua_cut_fields_fast``, SSE2) against the scalar tokenizer, the reference: the same
/// verdict, spans, hour and second on every line of every sample log, in every format, and on
/// lines mutated at random around the bytes the cut looks for; and the same again when the C
/// pass finds where the line ends itself (``ua_cut_line_fast``).
@Suite struct VectorisedTokenizerTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let formats: [LogFormat] = [
        try! LogFormat(BuiltinFormats.uaLog),
        try! LogFormat(BuiltinFormats.combined),
        try! LogFormat(
            #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time dev="$http_x_device_id""#
        ),
        try! LogFormat("$msec|$status|$http_user_agent"),
        try! LogFormat(#"$time_iso8601 "$http_user_agent"$status"#),
    ]

    static var sampleLines: [[UInt8]] {
        let dir = repoRoot.appendingPathComponent("SampleLogs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        var lines: [[UInt8]] = []
        for name in names.sorted() where name.hasSuffix(".log") {
            let path = dir.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            lines += data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        }
        return lines
    }

    /// Everything a match leaves behind, for comparison.
    struct Outcome: Equatable {
        var matched: Bool
        var spans: [Int] = []
        var hour: HourKey?
        var second = 0
    }

    /// What ``LineTokenizer/match(_:)`` leaves, or with `firstOnly` what the first-occurrence cut
    /// alone leaves (the C pass or the scalar one, without the backtracking matcher behind them).
    static func outcome(_ tokenizer: LineTokenizer, _ line: [UInt8], firstOnly: Bool = false) -> Outcome {
        line.withUnsafeBytes { raw in
            guard firstOnly ? tokenizer.matchFirstOccurrences(raw) : tokenizer.match(raw) else {
                return Outcome(matched: false)
            }
            let spans = (0..<tokenizer.fieldCount).flatMap { [tokenizer.starts[$0], tokenizer.ends[$0]] }
            return Outcome(matched: true, spans: spans, hour: tokenizer.hour, second: tokenizer.secondOfHour)
        }
    }

    /// What follows a line in ``lineOutcome(_:_:)``'s buffer: quotes and a newline (the next
    /// line's), and more than a 64-byte block and the 8 bytes the sweep leaves after it.
    static let after = Array(#"" "x" \""#.utf8) + [0x0A] + Array(repeating: 0x22, count: 70)

    /// What ``LineTokenizer/matchLine(_:available:)`` leaves for `line` followed by a `\n` and
    /// ``after``, all of it readable: the length it found and the outcome, or nil when it did
    /// not find the line's end.
    static func lineOutcome(_ tokenizer: LineTokenizer, _ line: [UInt8], firstOnly: Bool = false) -> (
        length: Int, outcome: Outcome
    )? {
        (line + [0x0A] + after).withUnsafeBytes { raw in
            let (p, available) = (raw.baseAddress!, raw.count)
            guard
                let (length, matched) = firstOnly
                    ? tokenizer.matchLineFirstOccurrences(p, available: available)
                    : tokenizer.matchLine(p, available: available)
            else { return nil }
            guard matched else { return (length, Outcome(matched: false)) }
            let spans = (0..<tokenizer.fieldCount).flatMap { [tokenizer.starts[$0], tokenizer.ends[$0]] }
            return (length, Outcome(matched: true, spans: spans, hour: tokenizer.hour, second: tokenizer.secondOfHour))
        }
    }

    /// Whether the C sweep must find the end of `line` (up to its first `\n`) followed by ``after``:
    /// a vectorised format with at most 48 quotes, and a line with at most 48 before that newline.
    static func mustFindEnd(_ tokenizer: LineTokenizer, _ line: ArraySlice<UInt8>) -> Bool {
        tokenizer.vectorised && tokenizer.formatQuotes <= 48 && line.count { $0 == 0x22 } <= 48
    }

    static func compare(_ lines: [[UInt8]], format: LogFormat, specialise: Bool = true, wide: Bool = true) -> (
        compared: Int, matched: Int, different: [[UInt8]]
    ) {
        let fast = LineTokenizer(format: format, specialise: specialise, wide: wide)
        let reference = LineTokenizer(format: format, vectorised: false)
        var matched = 0
        var different: [[UInt8]] = []
        for line in lines {
            let a = outcome(fast, line)
            let b = outcome(reference, line)
            if a.matched { matched += 1 }
            // The C pass alone must cut what the scalar first-occurrence cut does: a line it gave
            // up on would still match (by backtracking), only slower.
            if a != b || outcome(fast, line, firstOnly: true) != outcome(reference, line, firstOnly: true) {
                different.append(line)
            }
            // Finding the end in the same sweep: the line up to its first newline, matched as the
            // reference matches it; found whenever the sweep can find it.
            let end = line.firstIndex(of: 0x0A) ?? line.count
            for firstOnly in [false, true] {
                if let (length, found) = lineOutcome(fast, line, firstOnly: firstOnly) {
                    let expected = outcome(reference, Array(line[..<end]), firstOnly: firstOnly)
                    if length != end || found != expected { different.append(line) }
                } else if mustFindEnd(fast, line[..<end]) {
                    different.append(line)
                }
            }
        }
        return (lines.count, matched, different)
    }

    @Test func theDefaultEscapeIsVectorisedTheOthersAreNot() throws {
        #expect(LineTokenizer(format: try LogFormat(BuiltinFormats.uaLog)).vectorised)
        #expect(!LineTokenizer(format: try LogFormat(BuiltinFormats.uaLog, escape: .json)).vectorised)
        #expect(!LineTokenizer(format: try LogFormat(BuiltinFormats.uaLog, escape: .none)).vectorised)
        #expect(!LineTokenizer(format: try LogFormat(BuiltinFormats.uaLog), vectorised: false).vectorised)
    }

    /// The built-in formats get the C code compiled for their literals; any other format, even
    /// one byte away from them, the general code.
    @Test func theBuiltInFormatsAndOnlyThemAreCutByCodeCompiledForThem() throws {
        let wide = LineTokenizer.wideAvailable ? Int(UA_FORMAT_WIDE) : 0
        #expect(LineTokenizer(format: Self.formats[0]).specialised == Int(UA_FORMAT_UA_LOG) | wide)
        #expect(LineTokenizer(format: Self.formats[1]).specialised == Int(UA_FORMAT_COMBINED) | wide)
        #expect(LineTokenizer(format: Self.formats[0], wide: false).specialised == Int(UA_FORMAT_UA_LOG))
        #expect(LineTokenizer(format: Self.formats[0], specialise: false).specialised == Int(UA_FORMAT_ANY) | wide)
        for text in [
            BuiltinFormats.uaLog.replacingOccurrences(of: " uct=", with: " uCt="),
            BuiltinFormats.uaLog.replacingOccurrences(of: "$status", with: "$request_length"),
            BuiltinFormats.uaLog.replacingOccurrences(
                of: "urt=\"$upstream_response_time\"", with: "urt=$upstream_response_time"),
            "x" + BuiltinFormats.uaLog,
            BuiltinFormats.uaLog + " ",
            BuiltinFormats.combined + " rt=$request_time",
            BuiltinFormats.combined.replacingOccurrences(of: "[", with: "("),
        ] {
            #expect(
                LineTokenizer(format: try LogFormat(text), wide: false).specialised == Int(UA_FORMAT_ANY), "\(text)")
        }
        for format in Self.formats.dropFirst(2) {
            #expect(LineTokenizer(format: format, wide: false).specialised == Int(UA_FORMAT_ANY))
        }
    }

    @Test(arguments: 0..<formats.count)
    func everySampleLineCutsAsTheScalarTokenizerCutsIt(format index: Int) {
        let lines = Self.sampleLines
        for (specialise, wide) in [(true, true), (false, true), (true, false), (false, false)] {
            let result = Self.compare(lines, format: Self.formats[index], specialise: specialise, wide: wide)
            #expect(result.compared > 300)
            if index == 0 { #expect(result.matched > 100) }
            #expect(result.different.map { String(decoding: $0, as: UTF8.self) } == [])
        }
    }

    /// A format with more quotes than the quote pass indexes (48), and lines with more quotes than
    /// that: the search per field, and no cut, as the scalar tokenizer decides.
    @Test func formatsAndLinesWithManyQuotesCutAsTheScalarTokenizerCutsThem() throws {
        let many = try LogFormat(
            (0..<25).map { "\"$http_x_f\($0)\"" }.joined(separator: " ") + " [$time_local] \"$http_user_agent\"")
        let line = (0..<25).map { "\"v\($0)\"" }.joined(separator: " ") + " [01/Nov/2026:00:00:00 +0800] \"UA\""
        var result = Self.compare([Array(line.utf8), Array(line.utf8.dropLast())], format: many)
        #expect(result.matched == 1)
        #expect(result.different.isEmpty)
        let head = #"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" ""#
        let tail = #"" rt=0.000 uct="-" uht="-" urt="-""#
        var lines: [[UInt8]] = []
        for quotes in [0, 1, 2, 35, 36, 37, 60, 200] {
            lines.append(Array((head + String(repeating: "\"", count: quotes) + tail).utf8))
            lines.append(Array((head + String(repeating: "a\" ", count: quotes) + tail).utf8))
        }
        for wide in [true, false] {
            result = Self.compare(lines, format: Self.formats[0], wide: wide)
            #expect(result.matched == 2)
            #expect(result.different.isEmpty)
        }
    }

    /// Lines mutated around quotes, spaces, brackets and line ends: inserted, deleted and
    /// replaced bytes, truncations and doubled pieces (a seeded generator: the same cases each run).
    @Test(arguments: 0..<formats.count)
    func mutatedLinesCutAsTheScalarTokenizerCutsThem(format index: Int) {
        var random = SplitMix64(state: UInt64(index) &+ 17)
        let seeds = Self.sampleLines.filter { !$0.isEmpty }
        let special: [UInt8] = [0x22, 0x20, 0x5D, 0x5B, 0x5C, 0x2D, 0x7C, 0x3D, 0x0A, 0x00, 0x41, 0x30]
        var lines: [[UInt8]] = []
        for _ in 0..<20_000 {
            var line = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = line.isEmpty ? 0 : Int(random.next() % UInt64(line.count))
                let byte = special[Int(random.next() % UInt64(special.count))]
                switch random.next() % 6 {
                case 0: line.insert(byte, at: at)
                case 1: if !line.isEmpty { line.remove(at: at) }
                case 2: if !line.isEmpty { line[at] = byte }
                case 3: line = Array(line.prefix(at))
                case 4: line.insert(contentsOf: line[at...].prefix(Int(random.next() % 40)), at: at)
                default: line += Array(repeating: byte, count: Int(random.next() % 70))
                }
            }
            lines.append(line)
        }
        for (specialise, wide) in [(true, true), (false, true), (true, false), (false, false)] {
            let result = Self.compare(lines, format: Self.formats[index], specialise: specialise, wide: wide)
            #expect(result.different.prefix(5).map { String(decoding: $0, as: UTF8.self) } == [])
        }
    }

    /// UAs of every length up to 300 bytes and around 4 KiB: the 16-byte blocks and the scalar
    /// tails of the search at every offset.
    @Test func linesOfEveryLengthAroundTheBitmapLimitCutAsTheScalarTokenizerCutsThem() {
        let head = #"127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" ""#
        let tail = #"" rt=0.000 uct="-" uht="-" urt="-""#
        var lines: [[UInt8]] = []
        for length in Array(0..<300) + Array(3_900..<4_200) {
            let ua = String(repeating: "Mozilla/5.0 (x] y) ", count: length / 19 + 1).prefix(length)
            lines.append(Array((head + ua + tail).utf8))
            lines.append(Array((head + ua + "\"" + tail).utf8))
            lines.append(Array((head + ua + tail).utf8.dropLast()))
        }
        for wide in [true, false] {
            let result = Self.compare(lines, format: Self.formats[0], wide: wide)
            #expect(result.matched == 600)
            #expect(result.different.prefix(3).map { String(decoding: $0, as: UTF8.self) } == [])
        }
    }

    /// The status, digit and decimal checks (eight bytes at a time in C) on every byte value at
    /// every place of values of 1 to 9 bytes, and with one or two dots.
    @Test func typedFieldsHoldingAnyByteAreCheckedAsTheScalarTokenizerChecksThem() {
        var lines: [[UInt8]] = []
        for length in 1...9 {
            for at in 0..<length {
                for byte in 0...255 where byte != 0x20 && byte != 0x22 {
                    var v = [UInt8](repeating: 0x37, count: length)
                    v[at] = UInt8(byte)
                    let (ok, half, dotted) = (Array("200".utf8), Array("0.5".utf8), [0x31, 0x2E] + v)
                    for (status, bytes, time) in [(v, ok, half), (ok, v, half), (ok, ok, v), (ok, ok, dotted)] {
                        lines.append(
                            Array(#"1.2.3.4 - - [01/Nov/2026:00:00:00 +0800] "GET / HTTP/1.1" "#.utf8) + status + [0x20]
                                + bytes + Array(#" "-" "UA" rt="#.utf8) + time
                                + Array(#" uct="-" uht="-" urt="-""#.utf8))
                    }
                }
            }
        }
        for wide in [true, false] {
            let result = Self.compare(lines, format: Self.formats[0], wide: wide)
            #expect(result.matched > 300)
            #expect(result.different.prefix(5).map { String(decoding: $0, as: UTF8.self) } == [])
        }
    }

    @Test func findsEitherByteAcrossBlockAndTailBoundaries() {
        for length in 0..<70 {
            for at in 0..<max(length, 1) {
                var bytes = [UInt8](repeating: 0x61, count: length)
                if at < length { bytes[at] = 0x5D }
                let found = bytes.withUnsafeBufferPointer { ua_find2($0.baseAddress, 0, length, 0x22, 0x5D) }
                #expect(found == (at < length ? at : -1), "length \(length), byte at \(at)")
            }
        }
    }

    @Test func theTableHashSeesEveryByteAndTheSeed() {
        var seen = Set<UInt64>()
        var bytes: [UInt8] = []
        for length in 0..<200 {
            bytes.append(UInt8(truncatingIfNeeded: length &* 31))
            bytes.withUnsafeBytes { raw in
                seen.insert(ByteHash.table(raw))
                seen.insert(ByteHash.table(raw, seed: 1))
                // One bit flipped anywhere changes the hash.
                for i in 0..<raw.count {
                    var copy = Array(raw)
                    copy[i] ^= 0x10
                    let flipped = copy.withUnsafeBytes { ByteHash.table($0) }
                    #expect(flipped != ByteHash.table(raw), "length \(raw.count), byte \(i)")
                }
            }
        }
        #expect(seen.count == 400)
    }
}
