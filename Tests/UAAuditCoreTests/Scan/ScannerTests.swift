import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A deterministic log whose expected counts the test knows line by line.
struct SyntheticLog {
    var text = ""
    var lines = 0
    /// hour ("2026-11-29T17:00:00+08:00") → class → count
    var expected: [String: [String: Int64]] = [:]
    var malformedLines: [Int] = []

    static let uas: [(String, String)] = [
        (LogLines.webview, "webview"), (LogLines.urlsession, "urlsession"), (LogLines.urlsession, "urlsession"),
        (LogLines.cfnetwork, "inconsistent"), (LogLines.curl, "other"), ("-", "missing"), ("", "missing"),
        (LogLines.safari, "inconsistent"), ("Mozilla/5.0 \\x1B[31m red", "other"),
    ]

    init(count: Int, seed: UInt64 = 42) {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for i in 0..<count {
            lines += 1
            if i % 97 == 13 {
                text += ["garbage line", "", "127.0.0.1 - - [29/Nov/2026:17:", "\u{1}\u{2} binary"][i % 4] + "\n"
                malformedLines.append(lines)
                continue
            }
            // Hours go back and forth: logs are not in time order.
            let hour = [17, 18, 17, 19, 16][next() % 5]
            let offset = i % 11 == 0 ? "+0530" : "+0800"
            let (ua, cls) = Self.uas[next() % Self.uas.count]
            let minute = String(next() % 60).leftPad2
            text += LogLines.uaLog(time: "29/Nov/2026:\(hour):\(minute):07 \(offset)", ua: ua) + "\n"
            let key = "2026-11-29T\(hour):00:00\(offset == "+0530" ? "+05:30" : "+08:00")"
            expected[key, default: [:]][cls, default: 0] += 1
        }
    }
}

extension String {
    var leftPad2: String { count >= 2 ? self : "0" + self }
}

@Suite struct ScannerTests {
    func configuration(threads: Int, chunkBytes: Int64 = 16 << 10) throws -> ScanConfiguration {
        ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: threads, maxLineBytes: 4096,
            blockSize: 4096, chunkBytes: chunkBytes)
    }

    @Test func countsEqualTheGeneratorsAndAreTheSameForEveryThreadCount() throws {
        let dir = try TempDirectory()
        let log = SyntheticLog(count: 5000)
        let path = try dir.write("access.log", Array(log.text.utf8))
        var reports: [Report] = []
        for threads in 1...4 {
            let configuration = try configuration(threads: threads)
            let result = Scanner(configuration: configuration).scan([path])
            let report = ReportBuilder.build(result, configuration: configuration, generatedAt: "x")
            var got: [String: [String: Int64]] = [:]
            for hour in report.hours {
                got[hour.hour] = hour.classes.filter { $0.value > 0 }
            }
            #expect(got == log.expected, "threads \(threads)")
            #expect(report.totals.malformed == Int64(log.malformedLines.count))
            #expect(report.totals.lines == Int64(log.lines))
            #expect(
                report.sources == [
                    Report.SourceEntry(
                        path: path, lines: Int64(log.lines), bytes: Int64(log.text.utf8.count), error: nil)
                ])
            #expect(report.malformedSamples.map(\.line) == log.malformedLines.prefix(10).map(Int64.init))
            reports.append(report)
        }
        #expect(reports.allSatisfy { $0 == reports[0] })
        // Hours are ordered by instant: 17:00+08:00 (09:00Z) comes before 16:00+05:30 (10:30Z).
        #expect(
            reports[0].hours.map(\.hour).prefix(3) == [
                "2026-11-29T16:00:00+08:00", "2026-11-29T17:00:00+08:00", "2026-11-29T18:00:00+08:00",
            ])
    }

    @Test func anUnreadableInputIsRecordedAndTheOthersAreStillAudited() throws {
        let dir = try TempDirectory()
        let good = try dir.write("good.log", Array((LogLines.uaLog(ua: LogLines.cfnetwork) + "\n").utf8))
        let result = Scanner(configuration: try configuration(threads: 2)).scan([dir.path("missing.log"), good])
        #expect(result.sources.map(\.error) == ["cannot open: No such file or directory", nil])
        #expect(result.sources.map(\.lines) == [0, 1])
        #expect(result.hours.values.first?.counts[2] == 1)
    }

    @Test func gzipInputsAreDetectedByMagicAndAuditedLikePlainOnes() throws {
        let dir = try TempDirectory()
        let log = SyntheticLog(count: 800)
        let plain = try dir.write("a.log", Array(log.text.utf8))
        let gz = try dir.write("a.log.gz.renamed", try GzipSourceTests.gzip(Array(log.text.utf8)))
        // One chunk for the plain file too: a gzip stream is one stretch, and a split client's
        // example keys are noted where its two kinds of request meet in one stretch.
        let configuration = try configuration(threads: 2, chunkBytes: 1 << 30)
        let a = ReportBuilder.build(
            Scanner(configuration: configuration).scan([plain]), configuration: configuration, generatedAt: "x")
        let b = ReportBuilder.build(
            Scanner(configuration: configuration).scan([gz]), configuration: configuration, generatedAt: "x")
        #expect(a.hours == b.hours)
        #expect(a.totals == b.totals)
        #expect(b.sources.first?.lines == Int64(log.lines))
        #expect(b.sources.first?.error == nil)
    }

    @Test func truncatedGzipKeepsItsLinesAndSaysWhy() throws {
        let dir = try TempDirectory()
        let log = SyntheticLog(count: 3000)
        let gz = try GzipSourceTests.gzip(Array(log.text.utf8))
        let path = try dir.write("cut.gz", Array(gz.prefix(gz.count / 2)))
        let result = Scanner(configuration: try configuration(threads: 1)).scan([path])
        let source = try #require(result.sources.first)
        #expect(source.error?.hasPrefix("truncated gzip file: it ends inside a compressed member (at byte ") == true)
        #expect(source.lines > 100)
        #expect(source.lines < Int64(log.lines))
    }

    @Test func standardInputIsReadFromAPipe() throws {
        let log = SyntheticLog(count: 300)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let data = Data(log.text.utf8)
        let thread = Thread {
            writer.write(data)
            try? writer.close()
        }
        thread.start()
        let configuration = try configuration(threads: 2)
        let result = Scanner(configuration: configuration).scan(
            ["-"], standardInput: pipe.fileHandleForReading.fileDescriptor)
        let report = ReportBuilder.build(result, configuration: configuration, generatedAt: "x")
        #expect(report.sources.first?.path == "-")
        #expect(report.totals.lines == Int64(log.lines))
        var got: [String: [String: Int64]] = [:]
        for hour in report.hours { got[hour.hour] = hour.classes.filter { $0.value > 0 } }
        #expect(got == log.expected)
    }

    @Test func chunkBoundariesFollowNewlines() throws {
        let dir = try TempDirectory()
        let text = "aaaa\nbbbbbbbbbbbbbbbbbbbb\ncc\nd\n"
        let path = try dir.write("c.log", Array(text.utf8))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let size = Int64(text.utf8.count)
        // Each chunk starts at the first line that begins at or after a multiple of the chunk size.
        #expect(try Chunking.boundaries(fd: fd, path: path, size: size, chunkBytes: 4) == [0, 5, 26, 29, 31])
        // The second line is longer than a chunk: the chunk after it starts after it.
        #expect(try Chunking.boundaries(fd: fd, path: path, size: size, chunkBytes: 8) == [0, 26, 31])
        #expect(try Chunking.boundaries(fd: fd, path: path, size: size, chunkBytes: 5) == [0, 5, 26, 31])
        #expect(try Chunking.boundaries(fd: fd, path: path, size: size, chunkBytes: 100) == [0, 31])
    }
}
