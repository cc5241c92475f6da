import Foundation
import Testing

/// A `.gz` whose data fails its check after decoding into lines that match no format: the
/// damage is the error (exit 3, the count of such lines), not a format mismatch (exit 8, with
/// advice to change the format).
@Suite struct DamagedGzipTests {
    /// 20 log lines, then 200 lines of what damaged data decodes to, gzipped, with a CRC that
    /// does not match: zlib finds the damage only at the member's end, after every line.
    /// `count` lines of `width` pseudo-random bytes (no newline among them).
    static func garbageLines(_ count: Int, width: Int, seed: UInt64) -> String {
        var state = seed
        var text = ""
        for _ in 0..<count {
            var line = [UInt8]()
            for _ in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let byte = UInt8(truncatingIfNeeded: state >> 56)
                line.append(byte == 0x0A ? 0x20 : byte)
            }
            text += String(decoding: line, as: UTF8.self) + "\n"
        }
        return text
    }

    /// Gzips `plain` (`gzip -n`, keeping it when `keep`) and returns the bytes of the `.gz`.
    static func gzipped(_ plain: String, keep: Bool = false) throws -> Data {
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-n"] + (keep ? ["-k"] : []) + [plain]
        try gzip.run()
        gzip.waitUntilExit()
        return try Data(contentsOf: URL(fileURLWithPath: plain + ".gz"))
    }

    /// `bytes` with the trailer's CRC-32 flipped: every line inflates, and the check fails at the end.
    static func badCRC(_ bytes: Data) -> Data {
        var damaged = bytes
        damaged[damaged.count - 8] ^= 0xFF
        return damaged
    }

    static func damagedGzip(
        in dir: Scratch, name: String = "old.log.gz", combined: Bool = false, head: Int = 20, garbage: Int = 200,
        cut: Bool = false
    ) throws -> String {
        var text = ""
        for i in 0..<(combined ? 220 : head) {
            let line = Lines.uaLog(time: "29/Nov/2026:17:\(10 + i % 40):40 +0800", ua: Lines.urlsession)
            // combined: ua_log without its timings.
            text += (combined ? String(line.prefix(upTo: line.range(of: " rt=")!.lowerBound)) : line) + "\n"
        }
        text += garbageLines(combined ? 0 : garbage, width: 90, seed: 12_345)
        let plain = try dir.write(String(name.dropLast(3)), text)
        let path = dir.path(name)
        let bytes = try gzipped(plain)
        // Cut: it ends inside the member, never checked.
        try (cut ? bytes.prefix(bytes.count - 100) : badCRC(bytes)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func scanSaysTheDamageIsTheCauseAndExitsThree() throws {
        let dir = try Scratch()
        let gz = try Self.damagedGzip(in: dir)
        let result = try Tool.run(["scan", "--json", gz])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "uaaudit: \(gz): corrupt gzip data: incorrect data check; the lines inflated from this member before it are counted but unverified (at byte "
            ), "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "); 200 of the 220 lines read from it are malformed, from line 21 on, after lines the log format parses: damaged data decodes to such lines, so the damage, not the log format, is the likely cause (check it with `gzip -t`)\n"
            ), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("do not match the log format"))
    }

    @Test func explainSaysTheSame() throws {
        let dir = try Scratch()
        let gz = try Self.damagedGzip(in: dir)
        let result = try Tool.run(["explain", "2026-11-29T17", gz])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains("200 of the 220 lines read from it are malformed, from line 21 on"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("do not match the log format"), "\(result.stderr)")
    }

    /// Damage does not hide a log in another format: its lines parse in a known one.
    @Test func aDamagedGzipInAnotherFormatIsStillAFormatMismatch() throws {
        let dir = try Scratch()
        let gz = try Self.damagedGzip(in: dir, combined: true)
        let result = try Tool.run(["scan", "-q", "--json", gz])
        #expect(result.status == 8, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix(
                "uaaudit: \(gz): corrupt gzip data: incorrect data check; the lines inflated from this member before it are counted but unverified (at byte "
            ) == true, "\(result.stderr)")
        #expect(lines.first?.contains("after lines the log format parses") == false)
        #expect(
            lines.count > 1
                && lines[1].hasPrefix(
                    "uaaudit: \(gz): 220 of 220 lines do not match the log format 'ua_log'; they parse as 'combined': use --format combined"
                ), "\(result.stderr)")
    }

    /// A member cut short is never checked either: garbage in it is the damage.
    @Test func aCutShortGzipOfGarbageIsTheDamageToo() throws {
        let dir = try Scratch()
        let gz = try Self.damagedGzip(in: dir, garbage: 2000, cut: true)
        let result = try Tool.run(["scan", "--json", gz])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains(": truncated gzip file: it ends inside a compressed member"), "\(result.stderr)")
        #expect(result.stderr.contains("after lines the log format parses"), "\(result.stderr)")
        #expect(!result.stderr.contains("do not match the log format"), "\(result.stderr)")
    }

    /// The verdict is the input's own: neither another input's malformed lines (they take the
    /// report's few samples) nor the order of the inputs changes it.
    @Test func theVerdictDoesNotDependOnOtherInputs() throws {
        let dir = try Scratch()
        let junk = try dir.write(
            "junk.log", (1...20).map { "garbage line \($0)" }.joined(separator: "\n") + "\n")
        let garbage = try Self.damagedGzip(in: dir)
        let combined = try Self.damagedGzip(in: dir, name: "combined.log.gz", combined: true)
        for inputs in [[junk, garbage], [garbage, junk]] {
            let result = try Tool.run(["scan", "-q", "--json"] + inputs)
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("after lines the log format parses"), "\(result.stderr)")
        }
        for inputs in [[junk, combined], [combined, junk]] {
            let result = try Tool.run(["scan", "-q", "--json"] + inputs)
            #expect(result.status == 8, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "\(combined): 220 of 220 lines do not match the log format 'ua_log'; they parse as 'combined': use --format combined (it was read up to damage, which may also explain them: check it with `gzip -t`)"
                ), "\(result.stderr)")
        }
    }

    /// Real damage: a bit flipped inside the deflate data of a real log mostly decodes to the
    /// log's own text shuffled (no control bytes), until the check at the member's end. That is
    /// the damage (exit 3), never a format mismatch (exit 8, which would hold `run` for good).
    @Test func aBitFlippedInARealLogIsTheDamage() throws {
        let dir = try Scratch()
        var text = ""
        let uas = [Lines.urlsession, Lines.cfnetwork, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)"]
        for i in 0..<3000 {
            let line = Lines.uaLog(
                time: "29/Nov/2026:17:\(10 + i % 40):\(10 + i % 50) +0800", ua: uas[i % 3] + " #\(i * 7919 % 1000)")
            text += line.replacingOccurrences(of: "/api/v2/me", with: "/api/v\(i % 5)/item/\(i * 31 % 997)") + "\n"
        }
        let plain = try dir.write("real.log", text)
        let packed = try Self.gzipped(plain, keep: true)
        let damaged = dir.path("damaged.log.gz")
        // The first flip, from the middle on, that decodes to mostly malformed lines and fails
        // the check at the end (about one flip in five does).
        var tried = 0
        for offset in stride(from: packed.count / 2, to: packed.count - 8, by: 37) {
            var bytes = packed
            bytes[offset] ^= 0x10
            try bytes.write(to: URL(fileURLWithPath: damaged))
            let result = try Tool.run(["scan", "-q", "--json", damaged])
            tried += 1
            guard result.stderr.contains("incorrect data check"), result.stdout.count > 0,
                let report = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
                let totals = report["totals"] as? [String: Any],
                let lines = totals["lines"] as? Int, let malformed = totals["malformed"] as? Int,
                lines >= 100, malformed * 2 > lines
            else { continue }
            #expect(result.status == 3, "flip at \(offset): \(result.stderr)")
            #expect(result.stderr.contains("the damage, not the log format, is the likely cause"), "\(result.stderr)")
            return
        }
        Issue.record("no flip among \(tried) decoded to mostly malformed lines")
    }

    /// A log in a format uaaudit does not know (JSON lines) refused from its first line: a bad
    /// CRC or a cut does not make it damage. Damage leaves the lines before it as they were.
    @Test(arguments: [false, true])
    func aLogInAnUnknownFormatIsAFormatMismatchDamagedOrNot(cut: Bool) throws {
        let dir = try Scratch()
        let text = (0..<400).map { #"{"time":"2026-11-29T17:00:\#($0 % 60)","ua":"x","n":\#($0)}"# }
        let plain = try dir.write("j.log", text.joined(separator: "\n") + "\n")
        let bytes = try Self.gzipped(plain)
        try (cut ? bytes.prefix(bytes.count * 2 / 3) : Self.badCRC(bytes)).write(
            to: URL(fileURLWithPath: plain + ".gz"))
        let result = try Tool.run(["scan", "-q", "--json", plain + ".gz"])
        #expect(result.status == 8, "\(result.stderr)")
        #expect(result.stderr.contains("do not match the log format 'ua_log'"), "\(result.stderr)")
        #expect(result.stderr.contains("(it was read up to damage, which may also explain them"), "\(result.stderr)")
        #expect(!result.stderr.contains("the likely cause"), "\(result.stderr)")
    }

    /// Lines over --max-line-bytes are malformed too: the first malformed line is the first of
    /// any kind, not the first kept sample (the few samples can all be long lines).
    @Test func theFirstMalformedLineIsCountedWhateverItsKind() throws {
        let dir = try Scratch()
        var text = ""
        for i in 0..<50 {
            text += Lines.uaLog(time: "29/Nov/2026:17:\(10 + i % 40):40 +0800", ua: Lines.urlsession) + "\n"
        }
        for _ in 0..<20 { text += String(repeating: "x", count: 3000) + "\n" }
        for i in 0..<200 { text += "\u{1}garbage \(i)\n" }
        let plain = try dir.write("long.log", text)
        try Self.badCRC(Self.gzipped(plain)).write(to: URL(fileURLWithPath: plain + ".gz"))
        let result = try Tool.run(["scan", "-q", "--json", "--max-line-bytes", "2048", plain + ".gz"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains("220 of the 270 lines read from it are malformed, from line 51 on"),
            "\(result.stderr)")
    }
}
