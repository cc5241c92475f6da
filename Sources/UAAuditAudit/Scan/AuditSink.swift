import UAAuditInput

/// The per-line work: tokenize, bucket, classify, count.
struct AuditSink: LineSink {
    let tokenizer: LineTokenizer
    let cache: UACache
    let classifier: Classifier
    let tally: Tally
    let progress: ProgressCounter?
    let missing: Int
    let alert: Int
    let uaField: Int
    let scoped: Bool
    let escape: EscapeMode
    let statusField: Int
    let pathField: Int
    let pathIsRequest: Bool
    let clientField: Int
    let futureAfter: Int64
    /// Per class: how its requests count for split clients (``ClientSample``'s bits, or 0).
    let clientBits: [UInt8]
    // Into the tally's sample, which outlives the sink: no reference counting per line.
    let clients: ClientSample.Noter?
    let releases: ReleaseSample?
    var lineNumber: Int64 = 0
    /// The newest request time seen, kept here (a class property checked for exclusive
    /// access on every line cost 5%) and handed to the tally at the end.
    var newest = Int64.min
    /// Lines not yet added to the progress counter (bytes are counted by the source, see ``ProgressSource``).
    var pendingLines = 0
    private let pathScratch: UnsafeMutableBufferPointer<UInt8>?
    private let shortKeyTerms: ByteHash.ShortKeyTerms

    init(worker: Worker, tally: Tally) {
        tokenizer = worker.tokenizer
        cache = worker.cache
        classifier = worker.classifier
        self.tally = tally
        progress = worker.progress
        let rules = worker.configuration.rules
        missing = rules.missingIndex
        alert = rules.alertIndex
        uaField = tokenizer.userAgentField
        scoped = rules.scope != nil
        escape = worker.configuration.format.escape
        pathScratch = scoped ? worker.pathScratch : nil
        statusField = tokenizer.statusField ?? -1
        pathField = tokenizer.requestField ?? tokenizer.uriField ?? -1
        pathIsRequest = tokenizer.requestField != nil
        clientField = worker.configuration.clientField ?? -1
        futureAfter = worker.configuration.futureAfter
        clientBits = worker.configuration.clientBits
        clients = tally.clients.map { ClientSample.Noter($0) }
        releases = tally.releases
        shortKeyTerms = ByteHash.shortKeyTerms(seed: worker.configuration.insight.salt.seed)
    }

    @inline(__always)
    mutating func line(_ bytes: UnsafeRawBufferPointer) {
        take(bytes, matched: tokenizer.match(bytes))
    }

    /// The tokenizer finds where the line ends while it matches it (``LineTokenizer/matchLine(_:available:)``).
    @inline(__always)
    mutating func line(at p: UnsafeRawPointer, available: Int) -> Int? {
        guard let (length, matched) = tokenizer.matchLine(p, available: available) else { return nil }
        take(UnsafeRawBufferPointer(start: p, count: length), matched: matched)
        return length
    }

    /// Counts a line the tokenizer has matched (or not: `matched` false).
    @inline(__always)
    private mutating func take(_ bytes: UnsafeRawBufferPointer, matched: Bool) {
        lineNumber += 1
        if progress != nil { noteProgress() }
        guard matched else {
            tally.countMalformed(line: lineNumber, text: bytes, reason: .format)
            return
        }
        // The UA's hash first, so that its cache slot is fetched while the rest is read.
        let raw = tokenizer.field(uaField)
        let present = !Classifier.isMissing(raw: raw)
        let uaHash = present ? cache.prepare(raw: raw) : 0
        let hour = tokenizer.hour
        let instant = hour.startInstant &+ Int64(tokenizer.secondOfHour)
        if instant > futureAfter {
            tally.future &+= 1
            countFuture(hour, raw: raw, present: present, hash: uaHash)
            return
        }
        let bucket = tally.bucket(hour)
        if instant > newest { newest = instant }
        if scoped, !inScope() {
            tally.count(bucket: bucket, slot: tally.outOfScopeSlot)
            return
        }
        // The client's slot is fetched while the UA is classified (hashing the key is cheap).
        var clientHash: UInt64 = 0
        var clientHome = -1
        if clientField >= 0, let clients {
            clientHash = ByteHash.hash(tokenizer.field(clientField), shortKeyTerms: shortKeyTerms)
            clientHome = clients.prefetch(bucket: bucket, hash: clientHash)
        }
        let cls: Int
        // The family id counted for this line and its UA's version tag (for the release sample).
        var countedFamily: UInt32?
        var versionTag: UInt32 = 0
        if !present {
            cls = missing
        } else {
            let found = cache.lookup(raw: raw, hash: uaHash)
            let c = UInt8(truncatingIfNeeded: found)
            if c == Classifier.failed {
                tally.count(bucket: bucket, slot: tally.errorsSlot)
                return
            }
            cls = Int(c)
            let family = UInt32(truncatingIfNeeded: found >> 8)
            versionTag = UACache.versionTag(found)
            let counted: Bool
            if family == UACache.unassignedFamily {
                // A family not in the table yet takes room there only if this tally tracks it.
                if tally.canTrackNewFamily(bucket: bucket), let id = cache.addPendingFamily() {
                    counted = tally.countFamily(bucket: bucket, family: id, cls: cls)
                    if counted { countedFamily = id }
                } else {
                    counted = false
                }
            } else {
                counted = tally.countFamily(bucket: bucket, family: family, cls: cls)
                if counted { countedFamily = family }
            }
            if !counted { tally.countUntrackedFamily(bucket: bucket) }
        }
        tally.count(bucket: bucket, slot: cls)
        if statusField >= 0 { tally.countStatus(bucket: bucket, cls: cls, status: tokenizer.field(statusField)) }
        if cls == alert {
            tally.countAlertUA(bucket: bucket, raw: raw)
            if pathField >= 0 { countPath(bucket: bucket) }
        }
        if clientField >= 0 {
            let bits = clientBits[cls]
            if bits != 0 {
                let key = tokenizer.field(clientField)
                if !Classifier.isMissing(raw: key) {
                    clients?.note(bucket: bucket, hash: clientHash, key: key, bits: bits, home: clientHome)
                    releases?.note(
                        bucket: bucket, hash: clientHash, bits: bits, versionTag: versionTag, family: countedFamily)
                }
            }
        }
    }

    /// Counts the path of an alert-class request, and whether it was refused (401 or 403).
    private func countPath(bucket: Int) {
        let field = tokenizer.field(pathField)
        guard let path = pathIsRequest ? RequestLine.path(of: field) : RequestLine.path(ofURI: field) else { return }
        var rejected = false
        if statusField >= 0 { rejected = StatusCounts.slots(of: tokenizer.field(statusField)).exact >= 0 }
        tally.countAlertPath(bucket: bucket, path: path, rejected: rejected)
    }

    mutating func overlongLine(prefix: UnsafeRawBufferPointer, length: Int) {
        lineNumber += 1
        if progress != nil { noteProgress() }
        tally.countMalformed(line: lineNumber, text: prefix, reason: .tooLong)
    }

    /// A line stamped past ``futureAfter``: classified and counted per hour apart from the
    /// buckets (no UA, path or client detail), so that `run` can count it into its hour when
    /// the clock reaches it.
    private mutating func countFuture(_ hour: HourKey, raw: UnsafeRawBufferPointer, present: Bool, hash: UInt64) {
        let slot: Int
        if scoped, !inScope() {
            slot = tally.outOfScopeSlot
        } else if !present {
            slot = missing
        } else {
            let c = UInt8(truncatingIfNeeded: cache.lookup(raw: raw, hash: hash))
            slot = c == Classifier.failed ? tally.errorsSlot : Int(c)
        }
        tally.futureHours[hour, default: [Int64](repeating: 0, count: tally.outOfScopeSlot + 1)][slot] += 1
    }

    private func inScope() -> Bool {
        let path: UnsafeRawBufferPointer?
        if let f = tokenizer.requestField {
            path = RequestLine.path(of: tokenizer.field(f))
        } else if let f = tokenizer.uriField {
            path = RequestLine.path(ofURI: tokenizer.field(f))
        } else {
            path = nil
        }
        guard let path, let scratch = pathScratch else { return classifier.inScope(path: nil) }
        let n = Unescape.decode(path, mode: escape, into: scratch)
        return classifier.inScope(path: UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(scratch)[..<n]))
    }

    @inline(__always)
    private mutating func noteProgress() {
        pendingLines &+= 1
        if pendingLines >= 8192 { flushProgress() }
    }

    mutating func flushProgress() {
        progress?.add(bytes: 0, lines: pendingLines)
        pendingLines = 0
    }
}
