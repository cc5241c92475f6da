import UAAuditInput

/// One thread's audit machinery: a reader, a tokenizer, a classifier with its UA cache.
///
/// Created once per thread and reused for every work item that thread reads (a chunk, or a
/// whole input: ``WorkItem``); each item gets its own ``Tally``.
package final class Worker {
    let configuration: ScanConfiguration
    let reader: LineReader
    let tokenizer: LineTokenizer
    let classifier: Classifier
    let cache: UACache
    let progress: ProgressCounter?
    /// The client table each item's tally borrows in turn.
    let clientPool = ClientSample.Pool()
    /// The app versions of the app UAs this thread has read.
    let versions: VersionCache
    /// Room to decode a request path for the scope rule.
    let pathScratch: UnsafeMutableBufferPointer<UInt8>

    package init(configuration: ScanConfiguration, progress: ProgressCounter?) {
        self.configuration = configuration
        self.reader = LineReader(blockSize: configuration.blockSize, maxLineBytes: configuration.maxLineBytes)
        self.tokenizer = LineTokenizer(format: configuration.format)
        self.classifier = Classifier(rules: configuration.rules)
        let versions = VersionCache(app: configuration.rules.app)
        self.versions = versions
        self.cache = UACache(
            classifier: classifier, escape: configuration.format.escape, maxLineBytes: configuration.maxLineBytes,
            versions: configuration.clientField == nil ? nil : versions,
            appClass: configuration.clientBits.map { $0 & ClientSample.app != 0 })
        self.progress = progress
        self.pathScratch = .allocate(capacity: max(configuration.maxLineBytes, 16))
    }

    deinit { pathScratch.deallocate() }

    /// Reads `source` to its end into a new tally; a read error ends the stretch early and is returned.
    package func audit<Source: ByteSource>(_ source: inout Source) -> (Tally, InputError?) {
        let tally = Tally(
            classCount: configuration.rules.classCount, sampleLimit: configuration.sampleLimit,
            families: cache.families,
            clientEntries: configuration.clientField == nil ? 0 : configuration.insight.maxClients,
            clientPool: clientPool,
            releases: configuration.clientField == nil
                ? nil : ReleaseSample(versions: versions))
        cache.startChunk()
        var sink = AuditSink(worker: self, tally: tally)
        var failure: InputError?
        do {
            try reader.read(&source, into: &sink)
        } catch {
            failure = error
        }
        sink.flushProgress()
        tally.detachFamilies()
        // Sorted here, on this thread, so that merging the chunk's clients is one pass per hour.
        tally.clients?.finish()
        tally.lines = sink.lineNumber
        tally.newest = sink.newest
        return (tally, failure)
    }
}
