/// A file name as its literal text and its digit runs: `access-2026-12-05.log` is
/// `access-`, 2026, `-`, 12, `-`, 05, `.log`. Two names have the same shape when their literal
/// text is the same and only their digit runs differ; names of one shape are ordered by their
/// digit runs as numbers, first run first (date order for cronolog's dated names, whatever
/// `%Y`, `%m`, `%d`, `%H` or epoch fields they hold).
///
/// `run` uses it to find the files a symbolic link to the live log pointed to between two runs
/// (cronolog re-points `access.log` to the next dated file every day).
package struct NameShape: Sendable, Equatable {
    /// The literal pieces, one more than the digit runs (empty pieces where runs touch an end).
    package let literals: [[UInt8]]
    /// The digit runs, without their leading zeros (so that they compare as numbers).
    package let numbers: [[UInt8]]

    /// The shape of `name`; nil when it holds no digit run (nothing to order it by).
    package init?(_ name: String) {
        var literals: [[UInt8]] = [[]]
        var numbers: [[UInt8]] = []
        var inRun = false
        for c in name.utf8 {
            if RotationSuffix.isDigit(c) {
                if !inRun { numbers.append([]) }
                numbers[numbers.count - 1].append(c)
                inRun = true
            } else {
                if inRun { literals.append([]) }
                literals[literals.count - 1].append(c)
                inRun = false
            }
        }
        if inRun { literals.append([]) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0.count <= 20 }) else { return nil }
        self.literals = literals
        self.numbers = numbers.map { run in
            let kept = run.drop { $0 == UInt8(ascii: "0") }
            return Array(kept)
        }
    }

    /// Whether `other` is the same text with other digits.
    package func isSameShape(as other: NameShape) -> Bool { literals == other.literals }

    /// Whether `self` comes before `other` (of the same shape): the first digit run that
    /// differs decides, as numbers.
    package func precedes(_ other: NameShape) -> Bool {
        for (a, b) in zip(numbers, other.numbers) where a != b {
            return a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
        }
        return false
    }
}
