import CPCRE2

/// A compiled, JIT-compiled PCRE2 pattern: the only file that imports `CPCRE2`.
///
/// Patterns run on raw bytes (no UTF mode), unanchored. The compiled code is read-only and shared
/// between threads; each thread matches through its own ``PatternMatcher``.
package final class Pattern: @unchecked Sendable {
    package let source: String
    let code: OpaquePointer

    /// Compiles `source`, or the equivalent that ``LinearForms`` knows for it unless `linear` is
    /// false (for the tests that compare the two); the error carries PCRE2's message and the
    /// offset in the pattern. `caseless` compiles it as nginx compiles a `~*` regex.
    package init(_ source: String, linear: Bool = true, caseless: Bool = false) throws(PatternError) {
        self.source = source
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = Array(((linear ? LinearForms.known[source] : nil) ?? source).utf8)
        let compiled = bytes.withUnsafeBufferPointer { buf in
            pcre2_compile_8(
                buf.baseAddress, buf.count, caseless ? UInt32(PCRE2_CASELESS) : 0, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw PatternError(pattern: source, message: Pattern.message(for: errorCode), offset: errorOffset)
        }
        code = compiled
        // JIT is an optimisation: when it is unavailable the interpreter gives the same answers.
        _ = pcre2_jit_compile_8(code, UInt32(PCRE2_JIT_COMPLETE))
    }

    deinit { pcre2_code_free_8(code) }

    static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(code, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: buffer[0..<Int(n)], as: UTF8.self) : "PCRE2 error \(code)"
    }
}

/// A pattern that did not compile.
package struct PatternError: Error, Equatable {
    let pattern: String
    package let message: String
    package let offset: Int
}

/// Limits that bound every match, so that no pattern can hang a run.
package struct MatchLimits: Sendable, Equatable, Codable {
    /// PCRE2's match limit (backtracking steps); JIT obeys it.
    var matchLimit: UInt32
    /// PCRE2's heap limit in KiB.
    var heapLimitKiB: UInt32

    static let standard = MatchLimits(matchLimit: 1_000_000, heapLimitKiB: 20_000)
    /// The most a rules file may set: the defaults. A higher match limit only lets a pattern
    /// that backtracks spend longer on each UA (at 4294967295, 17 s on one 5 KB UA; issue 31).
    static let maximum = standard

    package init(matchLimit: UInt32, heapLimitKiB: UInt32) {
        self.matchLimit = matchLimit
        self.heapLimitKiB = heapLimitKiB
    }
}

/// The outcome of one match.
package enum MatchOutcome: Equatable, Sendable {
    case match
    case noMatch
    /// The match was abandoned (a limit hit, or another PCRE2 error): the UA cannot be classified.
    case failed(String)
}

/// Per-thread match state: PCRE2 match data and a match context carrying the limits.
package final class PatternMatcher {
    private let matchData: OpaquePointer
    private let context: OpaquePointer

    package init(limits: MatchLimits = .standard) {
        matchData = pcre2_match_data_create_8(1, nil)
        context = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(context, limits.matchLimit)
        pcre2_set_depth_limit_8(context, limits.matchLimit)
        pcre2_set_heap_limit_8(context, limits.heapLimitKiB)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(context)
    }

    /// Searches `subject` for `pattern` anywhere (unanchored).
    package func search(_ pattern: Pattern, in subject: UnsafeRawBufferPointer) -> MatchOutcome {
        guard let base = subject.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            // An empty subject still needs a valid pointer (a byte on the stack, not one
            // allocated per matcher and never freed: LeakSanitizer found that one).
            var empty: UInt8 = 0
            return withUnsafePointer(to: &empty) {
                outcome(pcre2_match_8(pattern.code, $0, 0, 0, 0, matchData, context))
            }
        }
        return outcome(pcre2_match_8(pattern.code, base, subject.count, 0, 0, matchData, context))
    }

    private func outcome(_ rc: Int32) -> MatchOutcome {
        if rc >= 0 { return .match }
        if rc == PCRE2_ERROR_NOMATCH { return .noMatch }
        return .failed(Pattern.message(for: rc))
    }
}
