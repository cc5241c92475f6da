/// The closest of a few known words to a mistyped one, for "did you mean" in messages.
package enum Suggestion {
    /// The word of `candidates` with the fewest single-character edits from `word` (ties: the
    /// first given); nil when there are no candidates.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.word
    }

    /// The Levenshtein distance between `a` and `b`, by characters, ignoring case.
    package static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        if x.isEmpty { return y.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in stride(from: 1, through: y.count, by: 1) {
                let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
