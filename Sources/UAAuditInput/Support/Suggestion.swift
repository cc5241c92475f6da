/// The closest of a few known words to a mistyped one, for "did you mean" in messages.
package enum Suggestion {
    /// The word of `candidates` with the fewest edits from `word` (``distance(_:_:)``); of
    /// those, the one sharing the longest start with it (`lnit`: `lint` rather than `init`),
    /// then the first given. Nil when no candidate is close enough to be a typo of it
    /// (``isClose(_:to:)``): `foo` suggests no command, `_comment` no config key.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (word: String, distance: Int, prefix: Int)?
        for candidate in candidates where isClose(word, to: candidate) {
            let d = distance(word, candidate)
            let p = commonPrefix(word, candidate)
            if let b = best, d > b.distance || (d == b.distance && p <= b.prefix) { continue }
            best = (candidate, d, p)
        }
        return best?.word
    }

    /// Whether `word` may be a typo of `candidate`: at most 2 edits, and at most one edit per
    /// 3 characters of the longer word (`jsn` for `json`, not `foo` for `run`).
    static func isClose(_ word: String, to candidate: String) -> Bool {
        let d = distance(word, candidate)
        return d <= 2 && d * 3 <= max(word.count, candidate.count)
    }

    /// The edit distance between `a` and `b`, by characters, ignoring case: insertions,
    /// deletions, substitutions and swaps of two neighbours (`tset` is one edit from `test`).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in stride(from: 1, through: x.count, by: 1) {
            for j in stride(from: 1, through: y.count, by: 1) {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }

    /// How many first characters `a` and `b` share, ignoring case.
    static func commonPrefix(_ a: String, _ b: String) -> Int {
        zip(a.lowercased(), b.lowercased()).prefix { $0 == $1 }.count
    }
}
