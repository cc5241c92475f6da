/// Classifies user agents with a ``RuleSet``: one per thread (it owns PCRE2 match state).
package final class Classifier {
    /// Returned by ``classify(_:)`` when a pattern could not finish (a match limit, say).
    static let failed: UInt8 = 255

    let rules: RuleSet
    private let matcher: PatternMatcher

    /// The most bytes of a decoded UA the rules are matched on: nginx's default header buffer
    /// (`large_client_header_buffers 4 8k`), which a request line or header must fit. A longer
    /// UA (another server's logs, a raised buffer) is classified on its first 8 KiB and counted
    /// as usual: so that no UA costs the patterns more than 8 KiB of matching (issue 31).
    static let maxMatchedBytes = 8192

    /// The bytes of `ua` the rules see: its first ``maxMatchedBytes``.
    @inline(__always)
    static func matched(_ ua: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        ua.count <= maxMatchedBytes ? ua : UnsafeRawBufferPointer(rebasing: ua[..<maxMatchedBytes])
    }

    package init(rules: RuleSet) {
        self.rules = rules
        self.matcher = PatternMatcher(limits: rules.limits)
    }

    /// True when a logged UA field means "no UA": `-` (unset) or empty.
    @inline(__always)
    static func isMissing(raw: UnsafeRawBufferPointer) -> Bool {
        raw.count == 0 || (raw.count == 1 && raw[0] == 0x2D)
    }

    /// ``isMissing(raw:)`` for a borrowed span of bytes (the CLI's view of a line).
    package static func isMissing(_ ua: RawSpan) -> Bool {
        ua.byteCount == 0 || (ua.byteCount == 1 && ua.unsafeLoad(fromByteOffset: 0, as: UInt8.self) == 0x2D)
    }

    /// ``firstMatch(_:)`` for a borrowed span of decoded UA bytes.
    package func firstMatch(_ ua: RawSpan) -> (rule: Int, pattern: Int)? {
        ua.withUnsafeBytes { firstMatch($0) }
    }

    /// The class index of a decoded, present UA (its first ``maxMatchedBytes``), or ``failed``.
    func classify(_ ua: UnsafeRawBufferPointer) -> UInt8 {
        let ua = Classifier.matched(ua)
        for (index, rule) in rules.rules.enumerated() {
            for pattern in rule.patterns {
                switch matcher.search(pattern, in: ua) {
                case .match: return UInt8(index)
                case .noMatch: continue
                case .failed: return Classifier.failed
                }
            }
        }
        return UInt8(rules.otherIndex)
    }

    /// The rule and pattern indexes that take a decoded, present UA: `(otherIndex, -1)` when no
    /// rule does, nil when a pattern could not finish. No allocation: for streaming `classify`.
    func firstMatch(_ ua: UnsafeRawBufferPointer) -> (rule: Int, pattern: Int)? {
        let ua = Classifier.matched(ua)
        for (index, rule) in rules.rules.enumerated() {
            for (p, pattern) in rule.patterns.enumerated() {
                switch matcher.search(pattern, in: ua) {
                case .match: return (index, p)
                case .noMatch: continue
                case .failed: return nil
                }
            }
        }
        return (rules.otherIndex, -1)
    }

    /// True when `pattern` matches the UA (for `rules lint`).
    func matches(_ pattern: Pattern, _ ua: [UInt8]) -> Bool {
        ua.withUnsafeBytes { matcher.search(pattern, in: Classifier.matched($0)) == .match }
    }

    /// Why a UA got its class: for `uaaudit classify`.
    package struct Explanation: Equatable, Sendable {
        package var className: String
        /// The rule and the pattern that matched (nil for `other` and `missing`).
        package var pattern: String?
        /// Set when a pattern could not finish: the UA is counted under `errors`.
        package var failure: String?
    }

    package func explain(_ ua: [UInt8]) -> Explanation {
        if ua.isEmpty || ua == [0x2D] { return Explanation(className: "missing") }
        return ua.withUnsafeBytes { whole in
            let buffer = Classifier.matched(whole)
            for rule in rules.rules {
                for pattern in rule.patterns {
                    switch matcher.search(pattern, in: buffer) {
                    case .match: return Explanation(className: rule.name, pattern: pattern.source)
                    case .noMatch: continue
                    case .failed(let message):
                        return Explanation(className: "errors", pattern: pattern.source, failure: message)
                    }
                }
            }
            return Explanation(className: "other")
        }
    }

    /// True when the request path is inside the rule set's scope (always, without a scope).
    @inline(__always)
    func inScope(path: UnsafeRawBufferPointer?) -> Bool {
        guard let scope = rules.scope else { return true }
        guard let path else { return false }
        return matcher.search(scope, in: path) == .match
    }
}
