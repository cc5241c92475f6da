import Foundation
import Synchronization
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Several inputs are read side by side (each gzip file, pipe or small file by one worker, a
/// large plain file in chunks) and merged in input order: the result is the same for every
/// thread count, and each input's figures are those it gives scanned alone.
@Suite struct ScannerParallelInputsTests {
    static func configuration(threads: Int) throws -> ScanConfiguration {
        // Samples from several inputs (60 of them), chunks of 16 KiB.
        ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: threads, maxLineBytes: 4096,
            sampleLimit: 60, blockSize: 4096, chunkBytes: 16 << 10)
    }

    /// A backfill in miniature: gzip files (one of two members), a plain file of 40 chunks, a
    /// missing file, a gzip file cut short, an empty file, a directory, stdin from a pipe, a
    /// FIFO and a small plain file.
    final class Inputs {
        let dir: TempDirectory
        var paths: [String] = []
        /// Lines each input holds, for those read to the end (nil for the others).
        var lines: [Int64?] = []
        var stdinText: [UInt8] = []
        var fifoText: [UInt8] = []
        let fifo: String
        /// The cut gzip file and its size.
        var cut = (path: "", size: 0)
        /// The numbers of the chunked file's malformed lines.
        var bigMalformed: [Int] = []

        init() throws {
            dir = try TempDirectory()
            fifo = dir.path("fifo")
            func add(_ name: String, _ log: SyntheticLog?, _ bytes: [UInt8]) throws {
                paths.append(try dir.write(name, bytes))
                lines.append(log.map { Int64($0.lines) })
            }
            let a = SyntheticLog(count: 1_500, seed: 1)
            try add("a.log.1.gz", a, try GzipSourceTests.gzip(Array(a.text.utf8)))
            let big = SyntheticLog(count: 3_000, seed: 2)
            try add("big.log", big, Array(big.text.utf8))
            bigMalformed = big.malformedLines
            paths.append(dir.path("missing.log"))
            lines.append(nil)
            let c = SyntheticLog(count: 2_000, seed: 3)
            let whole = try GzipSourceTests.gzip(Array(c.text.utf8))
            let cutBytes = Array(whole.prefix(whole.count / 2))
            cut = (try dir.write("cut.log.gz", cutBytes), cutBytes.count)
            paths.append(cut.path)
            lines.append(nil)
            try add("empty.log", SyntheticLog(count: 0), [])
            let sub = dir.path("a-directory")
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
            paths.append(sub)
            lines.append(nil)
            let d1 = SyntheticLog(count: 700, seed: 4)
            let d2 = SyntheticLog(count: 900, seed: 5)
            let members = try GzipSourceTests.gzip(Array(d1.text.utf8)) + GzipSourceTests.gzip(Array(d2.text.utf8))
            paths.append(try dir.write("d.log.2.gz", members))
            lines.append(Int64(d1.lines + d2.lines))
            let s = SyntheticLog(count: 400, seed: 6)
            stdinText = Array(s.text.utf8)
            paths.append("-")
            lines.append(Int64(s.lines))
            let f = SyntheticLog(count: 300, seed: 7)
            fifoText = Array(f.text.utf8)
            #expect(mkfifo(fifo, 0o600) == 0)
            paths.append(fifo)
            lines.append(Int64(f.lines))
            let e = SyntheticLog(count: 50, seed: 8)
            try add("small.log", e, Array(e.text.utf8))
            let g = SyntheticLog(count: 1_200, seed: 9)
            try add("g.log.3.gz", g, try GzipSourceTests.gzip(Array(g.text.utf8)))
        }

        /// Every byte the inputs hold (what the progress counter counts once each).
        var bytes: Int {
            var total = stdinText.count + fifoText.count
            for path in paths where path != "-" && path != fifo {
                if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int,
                    (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType)
                        == .typeRegular
                {
                    total += size
                }
            }
            return total
        }

        /// Scans `which` with `threads`, stdin and the FIFO fed by threads of their own.
        func scan(_ which: [String], threads: Int, progress: ProgressCounter? = nil) throws -> AuditResult {
            let pipe = Pipe()
            let writers = DispatchGroup()
            if which.contains("-") {
                let writer = pipe.fileHandleForWriting
                let text = Data(stdinText)
                DispatchQueue.global().async(group: writers) {
                    writer.write(text)
                    try? writer.close()
                }
            } else {
                try pipe.fileHandleForWriting.close()
            }
            if which.contains(fifo) {
                let (path, text) = (fifo, fifoText)
                DispatchQueue.global().async(group: writers) {
                    // Waits for the scan to open the FIFO.
                    let fd = open(path, O_WRONLY)
                    _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                }
            }
            let configuration = try ScannerParallelInputsTests.configuration(threads: threads)
            let result = Scanner(configuration: configuration, progress: progress).scan(
                which, standardInput: pipe.fileHandleForReading.fileDescriptor)
            writers.wait()
            try pipe.fileHandleForReading.close()
            return result
        }
    }

    static func json(_ result: AuditResult, threads: Int) throws -> [UInt8] {
        try ReportEncoding.encode(
            ReportBuilder.build(result, configuration: try configuration(threads: threads), generatedAt: "x"))
    }

    @Test(.timeLimit(.minutes(1)))
    func theResultIsTheSameForEveryThreadCountAndEachInputCountsAsAlone() throws {
        let inputs = try Inputs()
        var results: [AuditResult] = []
        var reports: [[UInt8]] = []
        for threads in [1, 2, 4] {
            let counter = ProgressCounter()
            let result = try inputs.scan(inputs.paths, threads: threads, progress: counter)
            // Every byte counted once (the sniffed ones too), every line.
            #expect(counter.snapshot.bytes == inputs.bytes, "threads \(threads)")
            #expect(counter.snapshot.lines == Int(result.lines), "threads \(threads)")
            results.append(result)
            reports.append(try Self.json(result, threads: threads))
        }
        for (i, threads) in [2, 4].enumerated() {
            let (a, b) = (results[0], results[i + 1])
            #expect(b.sources == a.sources, "threads \(threads)")
            #expect(b.hours == a.hours, "threads \(threads)")
            #expect(b.samples == a.samples, "threads \(threads)")
            #expect(b.malformed == a.malformed, "threads \(threads)")
            #expect(b.newest == a.newest, "threads \(threads)")
            #expect(reports[i + 1] == reports[0], "threads \(threads)")
        }

        // The sequential result: each input scanned alone on one thread, in order.
        let alone = try inputs.paths.map { try inputs.scan([$0], threads: 1) }
        let result = results[0]
        #expect(result.sources == alone.flatMap(\.sources))
        var hours: [HourKey: AuditResult.HourTally] = [:]
        for part in alone {
            for (key, hour) in part.hours {
                if var sum = hours[key] {
                    sum.add(hour)
                    hours[key] = sum
                } else {
                    hours[key] = hour
                }
            }
        }
        #expect(result.hours == hours)
        #expect(result.malformed == alone.reduce(0) { $0 + $1.malformed })
        #expect(result.newest == alone.compactMap(\.newest).max())
        #expect(result.samples == Array(alone.flatMap(\.samples).prefix(60)))
        // The samples come from several inputs, each numbered within its own file (the chunked
        // one across its chunks).
        #expect(Set(result.samples.map(\.path)) == Set([0, 1, 3, 6].map { inputs.paths[$0] }))
        let bigSamples = result.samples.filter { $0.path == inputs.paths[1] }.map(\.line)
        #expect(bigSamples == inputs.bigMalformed.map(Int64.init))

        // Inputs that could not be read say why; the damaged gzip in the middle keeps its lines
        // and its error, and every input after it is counted whole.
        let byPath = Dictionary(uniqueKeysWithValues: result.sources.map { ($0.path, $0) })
        #expect(byPath[inputs.dir.path("missing.log")]?.error == "cannot open: No such file or directory")
        #expect(byPath[inputs.dir.path("a-directory")]?.error == "read failed: Is a directory")
        let cut = try #require(byPath[inputs.cut.path])
        #expect(cut.error == "truncated gzip file: it ends inside a compressed member (at byte \(inputs.cut.size))")
        #expect(cut.unverified)
        #expect(cut.bytes == Int64(inputs.cut.size))
        #expect(cut.lines > 0)
        #expect(result.sources.map(\.path) == inputs.paths)
        for (source, lines) in zip(result.sources, inputs.lines) where lines != nil {
            #expect(source.lines == lines, "\(source.path)")
            #expect(source.error == nil, "\(source.path)")
        }
        // Stdin and the FIFO are known by a hash of their bytes.
        #expect(byPath["-"]?.contentHash == SHA256.hex(SHA256.hash(inputs.stdinText)))
        #expect(byPath[inputs.fifo]?.contentHash == SHA256.hex(SHA256.hash(inputs.fifoText)))
        #expect(byPath[inputs.dir.path("a-directory")]?.contentHash == SHA256.hex(SHA256.hash([])))
        #expect(byPath[inputs.paths[0]]?.contentHash == nil)
    }

    /// Counts the descriptors this process holds open on files under `directory`.
    final class OpenFiles: @unchecked Sendable {
        let directory: String
        let most = Mutex(0)
        let stop = Atomic(false)

        init(_ directory: String) {
            self.directory = (directory as NSString).resolvingSymlinksInPath + "/"
        }

        var now: Int {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return fds.filter { fd in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
                return target?.hasPrefix(directory) ?? false
            }.count
        }

        /// Notes the most open at once until ``stop`` is set.
        func watch() {
            while !stop.load(ordering: .relaxed) {
                let n = now
                most.withLock { $0 = max($0, n) }
            }
        }
    }

    /// A backfill of 120 rotated gzip files and a large plain file holds open only the inputs in
    /// flight (at most one per place in the pipeline), and closes every one.
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2])
    func onlyTheInputsInFlightAreOpen(threads: Int) throws {
        let dir = try TempDirectory()
        var paths: [String] = []
        var lines: [Int64] = []
        for i in 0..<120 {
            let log = SyntheticLog(count: 300, seed: UInt64(i))
            paths.append(try dir.write("access.log.\(i + 1).gz", try GzipSourceTests.gzip(Array(log.text.utf8))))
            lines.append(Int64(log.lines))
        }
        let big = SyntheticLog(count: 2_000, seed: 1_000)
        paths.insert(try dir.write("access.log", Array(big.text.utf8)), at: 60)
        lines.insert(Int64(big.lines), at: 60)
        let open = OpenFiles(dir.url.path)
        let watching = DispatchGroup()
        DispatchQueue.global().async(group: watching) { open.watch() }
        let result = Scanner(configuration: try Self.configuration(threads: threads)).scan(paths)
        open.stop.store(true, ordering: .relaxed)
        watching.wait()
        #expect(result.sources.map(\.lines) == lines)
        #expect(result.sources.allSatisfy { $0.error == nil })
        #expect(open.most.withLock { $0 } <= threads + 1)
        #expect(open.now == 0)
    }
}
