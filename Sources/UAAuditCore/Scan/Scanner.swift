import Dispatch
import Glibc

/// Audits inputs (files, `-` for stdin, gzip detected by magic bytes) into one ``AuditResult``.
///
/// A regular, uncompressed file is cut into chunks at fixed offsets (``Chunking``), at line
/// boundaries, whatever the thread count; the threads take the chunks in file order as they
/// become free, and this thread merges them in file order while they read the next ones
/// (``ChunkPipeline``: at most one tally per thread plus the one being merged, and the result is the same
/// for every thread count and whichever thread read which chunk). Stdin and gzip stream on one thread. An input that cannot be read is
/// recorded in its source entry and the others are still audited.
package final class Scanner {
    package let configuration: ScanConfiguration
    private let workers: [Worker]
    private let progress: ProgressCounter?

    package init(configuration: ScanConfiguration, progress: ProgressCounter? = nil) {
        self.configuration = configuration
        self.progress = progress
        workers = (0..<configuration.threads).map { _ in Worker(configuration: configuration, progress: progress) }
    }

    /// Audits `paths` in order. Stdin is read from `standardInput` when a path is `-`. The
    /// progress counter's total is the caller's to set (``ProgressCounter/expect(inputs:)``),
    /// before a display reads it.
    package func scan(_ paths: [String], standardInput: Int32 = 0) -> AuditResult {
        var result = AuditResult(classCount: configuration.rules.classCount, sampleLimit: configuration.sampleLimit)
        let (alert, classCount) = (configuration.rules.alertIndex, configuration.rules.classCount)
        let (threshold, minRequests) = (configuration.threshold, configuration.minRequests)
        result.keepsDetails = { hour in
            let requests = hour.counts[0...classCount].reduce(0, +)
            return AlertPolicy.breaches(
                alertCount: hour.counts[alert], requests: requests, threshold: threshold, minRequests: minRequests)
        }
        for path in paths {
            scanOne(path, standardInput: standardInput, into: &result)
        }
        return result
    }

    private func scanOne(_ path: String, standardInput: Int32, into result: inout AuditResult) {
        var source = AuditResult.Source(path: path)
        let fd: Int32
        if path == "-" {
            fd = standardInput
        } else {
            do {
                fd = try Syscalls.open(path, flags: O_RDONLY)
            } catch {
                source.error = "cannot open: \(error.description)"
                result.sources.append(source)
                return
            }
        }
        defer { if path != "-" { Syscalls.close(fd) } }
        let info = try? Syscalls.fstat(fd)
        let regular = info?.isRegular ?? false
        let size = info?.size ?? 0
        // A regular file is read without blocking: one that would wait (/proc/kmsg) is a read
        // error, not a hang. (A pipe keeps blocking reads: its writer is still writing.)
        if regular, path != "-" { Syscalls.setNonBlocking(fd) }

        // Sniff the gzip magic: the first two bytes.
        var magic = [UInt8](repeating: 0, count: 2)
        var sniffed = 0
        var base = FileRangeSource(fd: fd, path: path, seekable: regular)
        // What is not a regular file is read once, and known by a hash of what was read.
        let hasher = regular ? nil : SHA256.Stream()
        base.hasher = hasher
        defer {
            if let hasher, !result.sources.isEmpty {
                result.sources[result.sources.count - 1].contentHash = SHA256.hex(hasher.finish())
            }
        }
        do {
            while sniffed < 2 {
                let n = try Scanner.read(&base, into: &magic, from: sniffed)
                if n == 0 { break }
                sniffed += n
            }
        } catch {
            source.error = error.reason
            result.sources.append(source)
            return
        }
        magic.removeLast(2 - sniffed)
        // Progress counts the bytes read from the input (compressed ones for gzip), as its size
        // does; the sniffed bytes are counted where they are used, not where chunks read them again.
        let counted = ProgressSource(base: base, progress: progress)

        if GzipSource<FileRangeSource>.isGzip(magic) {
            progress?.add(bytes: sniffed, lines: 0)
            let prefixed = PrefixedSource(prefix: magic, base: counted)
            do {
                var gzip = try GzipSource(base: prefixed, path: path)
                let (tally, failure) = workers[0].audit(&gzip)
                result.lastReadAt = DispatchTime.now().uptimeNanoseconds
                source.lines = tally.lines
                source.malformed = tally.malformed
                source.keepProbe(from: tally)
                source.bytes = gzip.consumed
                source.error = failure.map(describe)
                source.unverified = failure?.unverified ?? false
                result.absorb(tally, path: path, firstLine: 1, escape: configuration.format.escape)
            } catch {
                source.error = error.reason
            }
            result.sources.append(source)
            return
        }

        func readOnOneThread() {
            self.progress?.add(bytes: sniffed, lines: 0)
            var stream = PrefixedSource(prefix: magic, base: counted)
            let (tally, failure) = self.workers[0].audit(&stream)
            result.lastReadAt = DispatchTime.now().uptimeNanoseconds
            source.lines = tally.lines
            source.malformed = tally.malformed
            source.keepProbe(from: tally)
            source.bytes = stream.consumed
            source.error = failure.map(describe)
            result.absorb(tally, path: path, firstLine: 1, escape: configuration.format.escape)
            result.sources.append(source)
        }
        if !regular || size <= configuration.chunkBytes {
            readOnOneThread()
            return
        }

        let bounds: [Int64]
        do {
            bounds = try Chunking.boundaries(fd: fd, path: path, size: size, chunkBytes: configuration.chunkBytes)
        } catch {
            // The split points could not be read: one thread reads from the start instead, so
            // the lines before the fault are counted and the report says where it stopped.
            readOnOneThread()
            return
        }
        let chunkCount = bounds.count - 1
        let pipeline = ChunkPipeline(chunks: chunkCount, threads: workers.count)
        let box = WorkerBox(self.workers)
        let progress = self.progress
        pipeline.start { worker, chunk in
            var range = ProgressSource(
                base: FileRangeSource(fd: fd, path: path, start: bounds[chunk], end: bounds[chunk + 1]),
                progress: progress)
            let (tally, failure) = box.items[worker].audit(&range)
            return ChunkResult(tally: tally, failure: failure, consumed: range.consumed)
        }
        var firstLine: Int64 = 1
        // Chunks are absorbed here in file order while the workers read the next ones.
        for chunk in 0..<chunkCount {
            let outcome = pipeline.take(chunk)
            let tally = outcome.tally
            result.absorb(tally, path: path, firstLine: firstLine, escape: configuration.format.escape)
            firstLine += tally.lines
            source.lines += tally.lines
            source.malformed += tally.malformed
            source.keepProbe(from: tally)
            source.bytes += outcome.consumed
            result.lastReadAt = max(result.lastReadAt, outcome.finishedAt)
            pipeline.release(outcome, chunk: chunk)
            if let failure = outcome.failure, source.error == nil {
                // Later chunks were read: say which bytes of this one were not.
                let unread =
                    chunk + 1 < chunkCount ? "; bytes up to \(bounds[chunk + 1]) were not read, the rest was" : ""
                source.error = describe(failure) + unread
            }
        }
        pipeline.finish()
        result.sources.append(source)
    }

    private static func read(_ source: inout FileRangeSource, into buffer: inout [UInt8], from start: Int)
        throws(InputError) -> Int
    {
        let result: Result<Int, InputError> = buffer.withUnsafeMutableBytes { raw in
            do throws(InputError) {
                return .success(try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func describe(_ error: InputError) -> String {
        if let offset = error.offset { return "\(error.reason) (at byte \(offset))" }
        return error.reason
    }
}

/// Lets the concurrent loop reach the workers; each index is used by exactly one thread.
private final class WorkerBox: @unchecked Sendable {
    let items: [Worker]
    init(_ items: [Worker]) { self.items = items }
}
