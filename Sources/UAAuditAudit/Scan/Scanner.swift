/// Audits inputs (files, `-` for stdin, gzip detected by magic bytes) into one ``AuditResult``.
///
/// The inputs become work items in input order (``WorkPlan``, ``WorkItem``): a regular,
/// uncompressed file larger than a chunk is cut at fixed offsets (``Chunking``), at line
/// boundaries, whatever the thread count, and each chunk is an item; any other input (gzip,
/// stdin, a pipe, a small file) is one item, read whole as one stream. The threads take the
/// items in order as they become free, so several files (a week of rotated `.gz` logs) are
/// read side by side, and this thread merges their tallies in item order while they read the
/// next ones (``ChunkPipeline``: at most one tally per thread plus the one being merged; an
/// input is open only while its items are in flight). The result is the same for every thread
/// count and whichever thread read which item; with one thread, this thread reads everything.
/// An input that cannot be read is recorded in its source entry and the others are still
/// audited.
package final class Scanner {
    let configuration: ScanConfiguration
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
            AlertPolicy.breaches(
                alertCount: hour.counts[alert], requests: hour.requests(classCount: classCount), threshold: threshold,
                minRequests: minRequests)
        }
        let plan = WorkPlan(paths: paths, standardInput: standardInput, chunkBytes: configuration.chunkBytes)
        let pipeline = ChunkPipeline<WorkItem>(threads: workers.count)
        let box = WorkerBox(workers)
        pipeline.start(plan: plan.next) { worker, item in box.items[worker].read(item) }
        // The entry of the chunked input being absorbed, and the number of its next chunk's first line.
        var chunked = AuditResult.Source(path: "")
        var firstLine: Int64 = 1
        var index = 0
        // Items are absorbed here in input order while the workers read the next ones.
        while let (item, outcome) = pipeline.take(index) {
            if outcome.tally != nil { result.lastReadAt = max(result.lastReadAt, outcome.finishedAt) }
            switch item {
            case .chunk(let input, let chunk):
                if chunk == 0 { (chunked, firstLine) = (AuditResult.Source(path: input.path), 1) }
                absorb(outcome, chunk: chunk, of: input, into: &chunked, firstLine: &firstLine, result: &result)
                if chunk + 1 == input.chunkCount {
                    input.close()
                    result.sources.append(chunked)
                }
            case .whole, .unread:
                if let tally = outcome.tally, let path = outcome.source?.path {
                    result.absorb(tally, path: path, firstLine: 1, escape: configuration.format.escape)
                }
                if let source = outcome.source { result.sources.append(source) }
            }
            pipeline.release(outcome, index: index)
            index += 1
        }
        pipeline.finish()
        return result
    }

    /// Adds chunk `chunk` of `input` to the result and to the input's entry.
    private func absorb(
        _ outcome: ChunkResult, chunk: Int, of input: ChunkedInput, into source: inout AuditResult.Source,
        firstLine: inout Int64, result: inout AuditResult
    ) {
        guard let tally = outcome.tally else { return }
        result.absorb(tally, path: input.path, firstLine: firstLine, escape: configuration.format.escape)
        firstLine += tally.lines
        source.lines += tally.lines
        source.malformed += tally.malformed
        source.keepProbe(from: tally)
        source.bytes += outcome.consumed
        if let failure = outcome.failure, source.error == nil {
            // Later chunks were read: say which bytes of this one were not.
            let unread =
                chunk + 1 < input.chunkCount
                ? "; bytes up to \(input.bounds[chunk + 1]) were not read, the rest was" : ""
            source.error = Worker.describe(failure) + unread
        }
    }
}

/// Lets the concurrent loop reach the workers; each index is used by exactly one thread.
private final class WorkerBox: @unchecked Sendable {
    let items: [Worker]
    init(_ items: [Worker]) { self.items = items }
}
