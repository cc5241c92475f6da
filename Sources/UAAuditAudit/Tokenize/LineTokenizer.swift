import CUAScan
import UAAuditInput

/// Splits one log line into the fields of a compiled ``LogFormat``, in place, without allocating.
///
/// Each variable's value runs up to the next occurrence of the literal that follows it. nginx
/// escapes `"` inside values, so a quoted field ends at the first quote; an unquoted field such
/// as `$remote_user` may hold spaces, so when a later field does not fit (a time that does not
/// parse, a status that is not three digits) the matcher backtracks to the next occurrence of the
/// literal, within a fixed budget per line. A line either matches the whole format or is malformed.
///
/// With `escape=default` (values hold no unescaped `"`) the first-occurrence cut is made by
/// ``ua_cut_fields_fast`` (C, SSE2); the Swift matcher below stays the reference, used for the other
/// escapes, for lines that do not cut at first occurrences, and with `vectorised: false` (the
/// tests and the fuzz target compare both on every input).
///
/// One tokenizer per thread: it keeps the spans of the last line and a time-parse cache.
package final class LineTokenizer {
    /// Field spans of the last matched line: byte offsets into that line.
    let starts: UnsafeMutablePointer<Int>
    let ends: UnsafeMutablePointer<Int>
    /// The hour of the last matched line.
    package var hour: HourKey { state.pointee.hour }
    /// Seconds since the start of ``hour`` of the last matched line's time.
    package var secondOfHour: Int { state.pointee.secondOfHour }
    /// True when lines are cut by the vectorised C pass first.
    let vectorised: Bool

    let format: LogFormat
    let fieldCount: Int
    /// Indexes of the fields the audit reads (nil where the format lacks one).
    let userAgentField: Int
    let timeField: Int
    let requestField: Int?
    let uriField: Int?
    let statusField: Int?

    /// How many literal occurrences one line may try before it is called malformed.
    static let backtrackBudget = 256

    // Flat, per-tokenizer copies of the format, so the hot path touches no shared array buffers
    // (retain/release of a buffer shared between threads would make them contend).
    private let head: UnsafeMutablePointer<UInt8>
    private let headCount: Int
    private let roles: UnsafeMutablePointer<FieldRole>
    private let literals: UnsafeMutablePointer<UInt8>
    private let literalStart: UnsafeMutablePointer<Int>
    private let literalCount: UnsafeMutablePointer<Int>
    private let json: Bool
    /// True unless `escape=none`: values then never hold an unescaped `"`.
    private let quoteFree: Bool
    private let quoteByte: UnsafeMutablePointer<UInt8>
    /// Each field's following literal, prepared for the C pass.
    private let prepared: UnsafeMutablePointer<ua_literal>
    /// How many `"` the head and the literals up to the field that ends the cut hold: a line
    /// the C pass cuts has exactly these.
    let formatQuotes: Int
    /// Which built-in format the C pass has compiled code for (`UA_FORMAT_ANY`: none), with
    /// `UA_FORMAT_WIDE` when it runs the AVX2 build of the cut.
    let specialised: Int
    /// True when the C pass runs its AVX2 build (`specialised` has `UA_FORMAT_WIDE`).
    private let wide: Bool
    /// The format as ``ua_cut_line_fast`` takes it, pointing at the arrays above.
    private let cutFormat: UnsafeMutablePointer<ua_cut_format>
    /// Whether this processor runs the AVX2 build of the C pass (asked once).
    static let wideAvailable = ua_wide_available() == 1
    /// The time fields, the only ones the C pass leaves to ``validate(_:)``.
    private let timeFields: UnsafeMutablePointer<Int>
    private let timeFieldCount: Int
    /// The time field when it is the format's only one and a `$time_local` (`ua_log`,
    /// `combined`), else -1.
    private let onlyTimeLocal: Int
    /// What changes per line, behind a pointer: a class's stored `var` costs a dynamic
    /// exclusivity check on every access (about 70 instructions each, several per line).
    private struct State {
        var timeParser = TimeParser()
        var budget = 0
        var line = UnsafeRawPointer(bitPattern: 1)!
        var length = 0
        var hour = HourKey(localHour: 0, offsetMinutes: 0)
        var secondOfHour = 0
    }
    private let state: UnsafeMutablePointer<State>
    private var line: UnsafeRawPointer { state.pointee.line }
    private var length: Int { state.pointee.length }

    /// `specialise: false` keeps a built-in format on the C pass's general code, and
    /// `wide: false` keeps the C pass on SSE2 where the processor has AVX2 (for the tests, which
    /// compare every way with the scalar reference).
    package init(format: LogFormat, vectorised: Bool = true, specialise: Bool = true, wide: Bool = true) {
        self.format = format
        var head: [UInt8] = []
        var roles: [FieldRole] = []
        var terminators: [[UInt8]] = []
        for segment in format.segments {
            switch segment {
            case .literal(let bytes):
                if roles.isEmpty { head = bytes } else { terminators[terminators.count - 1] = bytes }
            case .variable(_, let role):
                roles.append(role)
                terminators.append([])
            }
        }
        let n = max(roles.count, 1)
        self.headCount = head.count
        self.head = .allocate(capacity: max(head.count, 1))
        self.head.initialize(from: head, count: head.count)
        self.roles = .allocate(capacity: n)
        self.roles.initialize(from: roles, count: roles.count)
        let flat = terminators.flatMap { $0 }
        // Eight bytes of padding: the C pass compares a short literal as one 8-byte word.
        self.literals = .allocate(capacity: flat.count + 8)
        self.literals.initialize(from: flat + [UInt8](repeating: 0, count: 8), count: flat.count + 8)
        self.literalStart = .allocate(capacity: n)
        self.literalCount = .allocate(capacity: n)
        var offset = 0
        for (k, t) in terminators.enumerated() {
            literalStart[k] = offset
            literalCount[k] = t.count
            offset += t.count
        }
        self.fieldCount = roles.count
        self.json = format.escape == .json
        self.quoteFree = format.escape != .none
        self.vectorised = vectorised && format.escape == .default
        self.prepared = .allocate(capacity: n)
        // Which of a line's quotes each literal's first quote is: the C pass places the literals
        // by them. Counted up to the field that ends the cut (the last, or the first one
        // followed by no literal): the cut never looks past it.
        var quotesBefore = head.count { $0 == 0x22 }
        var formatQuotes = quotesBefore
        for (k, t) in terminators.enumerated() {
            var word: UInt64 = 0
            for (i, byte) in t.prefix(8).enumerated() { word |= UInt64(byte) << (8 * UInt64(i)) }
            let mask: UInt64 = t.count >= 8 ? ~0 : (1 << (8 * UInt64(t.count))) - 1
            let check: Int32
            switch roles[k] {
            case .status: check = Int32(UA_STATUS)
            case .digits: check = Int32(UA_DIGITS)
            case .decimal: check = Int32(UA_DECIMAL)
            default: check = Int32(UA_ANY)
            }
            let quoteOffset = t.firstIndex(of: 0x22) ?? -1
            (prepared + k).initialize(
                to: ua_literal(
                    word: word, mask: mask, count: t.count, start: literalStart[k], first: t.first ?? 0,
                    check: UInt8(check), quote_offset: Int32(quoteOffset), quote_index: Int32(quotesBefore)))
            if quotesBefore >= 0 {
                quotesBefore += t.count { $0 == 0x22 }
                // Past the field that ends the cut, no literal is placed by its quotes.
                if t.isEmpty || k == terminators.count - 1 {
                    formatQuotes = quotesBefore
                    quotesBefore = -1
                }
            }
        }
        self.formatQuotes = formatQuotes
        self.specialised =
            (specialise
                ? ua_specialised_format(headCount, roles.count, formatQuotes, literals, prepared) : Int(UA_FORMAT_ANY))
            | (wide && LineTokenizer.wideAvailable ? Int(UA_FORMAT_WIDE) : 0)
        self.wide = specialised & Int(UA_FORMAT_WIDE) != 0
        let timed = roles.indices.filter { roles[$0].isTime }
        self.timeFieldCount = timed.count
        self.timeFields = .allocate(capacity: max(timed.count, 1))
        self.timeFields.initialize(from: timed, count: timed.count)
        self.onlyTimeLocal = timed.count == 1 && roles[timed[0]] == .timeLocal ? timed[0] : -1
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: State())
        self.quoteByte = .allocate(capacity: 1)
        self.quoteByte.initialize(to: 0x22)
        self.userAgentField = roles.firstIndex(of: .userAgent) ?? 0
        self.timeField = roles.firstIndex(where: \.isTime) ?? 0
        self.requestField = roles.firstIndex(of: .request)
        self.uriField = roles.firstIndex(of: .uri)
        self.statusField = roles.firstIndex(of: .status)
        starts = .allocate(capacity: max(roles.count, 1))
        ends = .allocate(capacity: max(roles.count, 1))
        starts.initialize(repeating: 0, count: max(roles.count, 1))
        ends.initialize(repeating: 0, count: max(roles.count, 1))
        cutFormat = .allocate(capacity: 1)
        cutFormat.initialize(
            to: ua_cut_format(
                head_count: headCount, field_count: fieldCount, format_quotes: formatQuotes,
                specialised: specialised, literals: literals, fields: prepared, starts: starts, ends: ends))
    }

    deinit {
        cutFormat.deallocate()
        starts.deallocate()
        ends.deallocate()
        head.deallocate()
        roles.deallocate()
        literals.deallocate()
        literalStart.deallocate()
        literalCount.deallocate()
        quoteByte.deallocate()
        prepared.deallocate()
        timeFields.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Matches `bytes` against the format; on success the spans and ``hour`` describe it.
    @inline(__always)
    package func match(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard begin(bytes) else { return false }
        // Almost every line matches taking the first occurrence of each literal; only when
        // that fails is the backtracking matcher run.
        if firstOccurrences() { return true }
        return matchField(0, at: headCount)
    }

    /// Finds where the line at `p` ends (its `\n`, within `available` readable bytes) in the C
    /// pass's sweep over its quotes, and matches it as ``match(_:)`` would: the line's length and
    /// whether it matched. Nil when the sweep did not find the end (the line runs past the last
    /// whole 64-byte block of `available - 8`, holds many quotes, or the format is not cut by the C
    /// pass): the caller then finds the end and calls ``match(_:)``. One sweep instead of a
    /// search for the newline and then one for the quotes.
    @inline(__always)
    func matchLine(_ p: UnsafeRawPointer, available: Int) -> (length: Int, matched: Bool)? {
        guard let (length, cut) = cutLine(p, available: available) else { return nil }
        guard begin(UnsafeRawBufferPointer(start: p, count: length)) else { return (length, false) }
        if cut, timesValid() { return (length, true) }
        return (length, matchField(0, at: headCount))
    }

    /// ``matchLine(_:available:)`` without the backtracking matcher, for tests (as
    /// ``matchFirstOccurrences(_:)`` is for ``match(_:)``).
    func matchLineFirstOccurrences(_ p: UnsafeRawPointer, available: Int) -> (length: Int, matched: Bool)? {
        guard let (length, cut) = cutLine(p, available: available) else { return nil }
        return (length, begin(UnsafeRawBufferPointer(start: p, count: length)) && cut && timesValid())
    }

    /// The C sweep of ``matchLine(_:available:)``: the line's length and whether the C pass cut it.
    @inline(__always)
    private func cutLine(_ p: UnsafeRawPointer, available: Int) -> (length: Int, cut: Bool)? {
        guard vectorised else { return nil }
        var length = 0
        let bytes = p.assumingMemoryBound(to: UInt8.self)
        let cut =
            wide
            ? ua_cut_line_fast_wide(bytes, available, cutFormat, &length)
            : ua_cut_line_fast(bytes, available, cutFormat, &length)
        return cut < 0 ? nil : (length, cut == 1)
    }

    /// The first-occurrence cut alone, without the backtracking matcher that ``match(_:)`` runs
    /// when it fails: for tests, which compare the C pass with the scalar one directly (a C pass
    /// that gave up on a line the scalar one cuts would only be slower, and ``match(_:)`` the same).
    func matchFirstOccurrences(_ bytes: UnsafeRawBufferPointer) -> Bool {
        begin(bytes) && firstOccurrences()
    }

    /// Takes `bytes` as the line; false when its head does not match.
    @inline(__always)
    private func begin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= headCount else { return false }
        state.pointee.line = base
        state.pointee.length = bytes.count
        state.pointee.budget = LineTokenizer.backtrackBudget
        return headCount == 0 || Syscalls.memcmp(base, head, headCount) == 0
    }

    @inline(__always)
    private func firstOccurrences() -> Bool {
        vectorised ? cutFirstOccurrences() : matchFirstOccurrences()
    }

    /// The fast path with the C pass: every cut and the status, digit and decimal checks in C,
    /// then the time fields parsed in order (the same outcome as ``matchFirstOccurrences()``,
    /// which checks each field as it cuts).
    @inline(__always)
    private func cutFirstOccurrences() -> Bool {
        guard
            ua_cut_fields_fast(
                line.assumingMemoryBound(to: UInt8.self), length, headCount, fieldCount, formatQuotes, specialised,
                literals, prepared, starts, ends) == 1
        else { return false }
        return timesValid()
    }

    /// Parses the time fields of a line the C pass has cut (it leaves them to Swift).
    @inline(__always)
    private func timesValid() -> Bool {
        if onlyTimeLocal >= 0 {
            // The common case, inline: what validateTyped(_:) does for it.
            let k = onlyTimeLocal
            guard let key = state.pointee.timeParser.parseLocal(line + starts[k], count: ends[k] - starts[k]) else {
                return false
            }
            state.pointee.hour = key
            state.pointee.secondOfHour = state.pointee.timeParser.secondOfHour
            return true
        }
        for i in 0..<timeFieldCount where !validateTyped(timeFields[i]) { return false }
        return true
    }

    /// The fast path: each field ends at the first place its following literal can go.
    @inline(__always)
    private func matchFirstOccurrences() -> Bool {
        var position = headCount
        for k in 0..<fieldCount {
            starts[k] = position
            if literalCount[k] == 0 || k == fieldCount - 1 { return matchLastField(k, at: position) }
            guard let cut = nextCut(k, position: position, from: position) else { return false }
            ends[k] = cut
            guard validate(k) else { return false }
            position = cut + literalCount[k]
        }
        return false
    }

    /// The bytes of field `index` of the last matched line.
    @inline(__always)
    func field(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: line + starts[index], count: ends[index] - starts[index])
    }

    /// The backtracking path: field `k` tries every place its following literal can go.
    private func matchField(_ k: Int, at position: Int) -> Bool {
        starts[k] = position
        if literalCount[k] == 0 || k == fieldCount - 1 { return matchLastField(k, at: position) }
        var from = position
        while state.pointee.budget > 0 {
            state.pointee.budget -= 1
            guard let cut = nextCut(k, position: position, from: from) else { return false }
            from = cut + 1
            ends[k] = cut
            if validate(k), matchField(k + 1, at: cut + literalCount[k]) { return true }
            starts[k] = position
        }
        return false
    }

    /// The last field: it runs to the end of the line, or to the literal that must end the line.
    @inline(__always)
    private func matchLastField(_ k: Int, at position: Int) -> Bool {
        let terminator = literals + literalStart[k]
        let n = literalCount[k]
        let cut = length - n
        guard cut >= position, n == 0 || matchesLiteral(terminator, n, at: cut) else { return false }
        if quoteFree {
            // The value holds no unescaped quote; a literal that starts with one starts at the first.
            let quote = firstQuote(from: position)
            if n > 0, terminator[0] == 0x22 {
                guard quote == cut else { return false }
            } else if let quote, quote < cut {
                return false
            }
        }
        ends[k] = cut
        return validate(k)
    }

    /// The next place at or after `from` where field `k` (starting at `position`) can end.
    ///
    /// With `escape=default` or `json` nginx escapes every `"` inside a value, so the field's
    /// first unescaped quote either starts its following literal or makes the line malformed
    /// (a line torn by a crash and glued to the next one must not parse).
    @inline(__always)
    private func nextCut(_ k: Int, position: Int, from: Int) -> Int? {
        let terminator = literals + literalStart[k]
        let n = literalCount[k]
        guard quoteFree else { return find(terminator, n, from: from, maxStart: length - n) }
        if terminator[0] == 0x22 {
            guard let quote = firstQuote(from: position), quote >= from, quote + n <= length,
                matchesLiteral(terminator, n, at: quote)
            else { return nil }
            return quote
        }
        return findBeforeQuote(terminator, n, from: from, fieldStart: position)
    }

    /// The first occurrence of `literal` at or after `from`, unless an unescaped quote comes
    /// first (then the field would hold it: nil). One pass looks for both bytes.
    @inline(__always)
    private func findBeforeQuote(_ literal: UnsafeMutablePointer<UInt8>, _ n: Int, from: Int, fieldStart: Int) -> Int? {
        let first = literal[0]
        let last = length - n
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let pattern = UInt64(first) &* ones
        let quotes = 0x22 &* ones
        var i = from
        while i + 8 <= length {
            let word = line.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let x = word ^ pattern
            let y = word ^ quotes
            var hits = ((x &- ones) & ~x | (y &- ones) & ~y) & highs
            while hits != 0 {
                let at = i + hits.trailingZeroBitCount >> 3
                let byte = line.load(fromByteOffset: at, as: UInt8.self)
                if byte == 0x22, !json || !isEscapedQuote(at: at, from: fieldStart) { return nil }
                if byte == first {
                    if at > last { return nil }
                    if n == 1 || matchesLiteral(literal, n, at: at) { return at }
                }
                hits &= hits &- 1
            }
            i += 8
        }
        while i < length {
            let byte = line.load(fromByteOffset: i, as: UInt8.self)
            if byte == 0x22, !json || !isEscapedQuote(at: i, from: fieldStart) { return nil }
            if byte == first {
                if i > last { return nil }
                if n == 1 || matchesLiteral(literal, n, at: i) { return i }
            }
            i += 1
        }
        return nil
    }

    /// The first `"` at or after `from` that nginx did not escape (with `escape=json`, one not
    /// preceded by an odd number of backslashes).
    @inline(__always)
    private func firstQuote(from: Int) -> Int? {
        var i = from
        while let q = find(quoteByte, 1, from: i, maxStart: length - 1) {
            if !json || !isEscapedQuote(at: q, from: from) { return q }
            i = q + 1
        }
        return nil
    }

    /// With `escape=json` a `"` after an odd number of backslashes belongs to the value.
    @inline(__always)
    private func isEscapedQuote(at cut: Int, from start: Int) -> Bool {
        var slashes = 0
        var i = cut - 1
        while i >= start, line.load(fromByteOffset: i, as: UInt8.self) == 0x5C {
            slashes += 1
            i -= 1
        }
        return slashes & 1 == 1
    }

    @inline(__always)
    private func matchesLiteral(_ literal: UnsafeMutablePointer<UInt8>, _ n: Int, at position: Int) -> Bool {
        // Format literals are short: a byte loop beats a call to memcmp.
        let p = line + position
        for i in 0..<n where p.load(fromByteOffset: i, as: UInt8.self) != literal[i] { return false }
        return true
    }

    /// The first occurrence of `literal` starting in `from...maxStart`.
    ///
    /// Fields are short (tens of bytes), so instead of calling memchr the first byte is
    /// searched eight bytes at a time with the "has a zero byte" bit trick.
    @inline(__always)
    private func find(_ literal: UnsafeMutablePointer<UInt8>, _ n: Int, from: Int, maxStart last: Int) -> Int? {
        let first = literal[0]
        let pattern = UInt64(first) &* 0x0101_0101_0101_0101
        var i = from
        // Words may reach past `last` (up to the line's end): hits beyond it are ignored.
        while i + 8 <= length {
            let x = line.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
            var hits = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            while hits != 0 {
                let at = i + hits.trailingZeroBitCount >> 3
                if at > last { return nil }
                if n == 1 || matchesLiteral(literal, n, at: at) { return at }
                hits &= hits &- 1
            }
            i += 8
            if i > last { return nil }
        }
        while i <= last {
            if line.load(fromByteOffset: i, as: UInt8.self) == first, n == 1 || matchesLiteral(literal, n, at: i) {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Checks the value of field `k` against what nginx writes for its variable; a time
    /// variable is parsed here, and the first one sets ``hour``.
    @inline(__always)
    private func validate(_ k: Int) -> Bool {
        switch roles[k] {
        case .userAgent, .request, .uri, .other: return true
        default: return validateTyped(k)
        }
    }

    private func validateTyped(_ k: Int) -> Bool {
        let start = line + starts[k]
        let count = ends[k] - starts[k]
        switch roles[k] {
        case .timeLocal:
            guard let key = state.pointee.timeParser.parseLocal(start, count: count) else { return false }
            if k == timeField {
                // The parser has just read the minute and second: no second reading of them.
                state.pointee.hour = key
                state.pointee.secondOfHour = state.pointee.timeParser.secondOfHour
            }
            return true
        case .timeISO8601:
            guard let key = TimeParser.parseISO8601(start, count: count) else { return false }
            if k == timeField { setTime(key, minuteAt: start + 14, secondAt: start + 17) }
            return true
        case .msec:
            guard let key = TimeParser.parseMsec(start, count: count) else { return false }
            if k == timeField {
                state.pointee.hour = key
                state.pointee.secondOfHour = Int(TimeParser.msecSeconds(start, count: count) - key.localHour * 3600)
            }
            return true
        case .status:
            return count == 3 && allDigits(start, count)
        case .digits:
            return count > 0 && allDigits(start, count)
        case .decimal:
            return count > 0 && isDecimal(start, count)
        case .userAgent, .request, .uri, .other:
            return true
        }
    }

    /// Sets the hour and the second within it from validated `MM` and `SS` digits.
    @inline(__always)
    private func setTime(_ key: HourKey, minuteAt m: UnsafeRawPointer, secondAt s: UnsafeRawPointer) {
        state.pointee.hour = key
        state.pointee.secondOfHour = (TimeParser.twoDigits(m, 0) ?? 0) * 60 + (TimeParser.twoDigits(s, 0) ?? 0)
    }

    @inline(__always)
    private func allDigits(_ p: UnsafeRawPointer, _ count: Int) -> Bool {
        for i in 0..<count where p.load(fromByteOffset: i, as: UInt8.self) &- 0x30 >= 10 { return false }
        return true
    }

    private func isDecimal(_ p: UnsafeRawPointer, _ count: Int) -> Bool {
        var dots = 0
        for i in 0..<count {
            let b = p.load(fromByteOffset: i, as: UInt8.self)
            if b == 0x2E { dots += 1 } else if b &- 0x30 >= 10 { return false }
        }
        return dots <= 1
    }
}
