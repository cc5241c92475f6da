/// A file name as its literal text and its digit runs: `access-2026-12-05.log` is
/// `access-`, 2026, `-`, 12, `-`, 05, `.log`. Two names have the same shape when their literal
/// text is the same and only their digit runs differ; names of one shape are ordered by their
/// digit runs as numbers, in the order ``dateOrders(_:)`` finds (date order for cronolog's
/// dated names: the year first, then month and day, whichever way round the name has them).
///
/// `run` uses it to find the files a symbolic link to the live log pointed to between two runs
/// (cronolog re-points `access.log` to the next dated file every day).
struct NameShape: Sendable, Equatable {
    /// The literal pieces, one more than the digit runs (empty pieces where runs touch an end).
    let literals: [[UInt8]]
    /// The digit runs, without their leading zeros (so that they compare as numbers).
    let numbers: [[UInt8]]
    /// How many digits each run has, leading zeros included (`%Y` writes 4, `%m` and `%d` 2).
    let widths: [Int]

    /// The shape of `name`; nil when it holds no digit run (nothing to order it by).
    init?(_ name: String) {
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
        self.widths = numbers.map(\.count)
        self.numbers = numbers.map { run in
            let kept = run.drop { $0 == UInt8(ascii: "0") }
            return Array(kept)
        }
    }

    /// Whether `other` is the same text with other digits.
    func isSameShape(as other: NameShape) -> Bool { literals == other.literals }

    /// Whether `self` comes before `other` (of the same shape): the first digit run that
    /// differs decides, as numbers, taking the runs in `order` (indices; nil: first run first).
    func precedes(_ other: NameShape, order: [Int]? = nil) -> Bool {
        for i in order ?? Array(numbers.indices) where numbers[i] != other.numbers[i] {
            let (a, b) = (numbers[i], other.numbers[i])
            return a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
        }
        return false
    }

    /// The value of run `i` (at most 20 digits: it fits no integer, but a date field does).
    func value(_ i: Int) -> Int { numbers[i].count > 6 ? Int.max : numbers[i].reduce(0) { $0 * 10 + Int($1 - 48) } }

    /// The orders (``precedes(_:order:)``) in which names of `shapes`' shape are in date order.
    /// A run of 4 digits (1970-2199) in every name is the year, compared first; the two 2-digit
    /// runs beside it are month and day. After the year (`%Y-%m-%d`) they are taken as month
    /// then day, unless a name has 13-31 where the month would be; before it (`%d-%m-%Y`
    /// or `%m-%d-%Y`) a name with 13-31 in one of them tells which is the day, and when none
    /// does, both orders are returned (the caller reads only what is between in both). Other
    /// runs (an hour) follow, in name order. Without a year: the name's own order.
    static func dateOrders(_ shapes: [NameShape]) -> [[Int]] {
        guard let first = shapes.first else { return [] }
        let runs = first.numbers.indices
        let natural = Array(runs)
        guard shapes.allSatisfy({ $0.widths == first.widths }) else { return [natural] }
        let years = runs.filter { i in first.widths[i] == 4 && shapes.allSatisfy { (1970...2199).contains($0.value(i)) }
        }
        guard years.count == 1, let y = years.first else { return [natural] }
        func isPair(_ a: Int, _ b: Int) -> Bool {
            runs.contains(a) && runs.contains(b) && first.widths[a] == 2 && first.widths[b] == 2
        }
        // Whether run `i` holds a day that is no month (13-31) in some name.
        func isDay(_ i: Int) -> Bool { shapes.contains { (13...31).contains($0.value(i)) } }
        func order(_ month: Int, _ day: Int) -> [Int] {
            [y, month, day] + runs.filter { ![y, month, day].contains($0) }
        }
        if isPair(y + 1, y + 2) {
            return isDay(y + 1) && !isDay(y + 2) ? [order(y + 2, y + 1)] : [order(y + 1, y + 2)]
        }
        guard isPair(y - 2, y - 1) else { return [[y] + runs.filter { $0 != y }] }
        switch (isDay(y - 2), isDay(y - 1)) {
        case (true, false): return [order(y - 1, y - 2)]
        case (false, true): return [order(y - 2, y - 1)]
        case (false, false): return [order(y - 1, y - 2), order(y - 2, y - 1)]
        case (true, true): return []
        }
    }
}
