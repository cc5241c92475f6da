/// The alert threshold as an exact decimal fraction, so `0.1%` of 1000 requests is exactly 1.
///
/// An hour is over the threshold when `count / requests` is strictly above it, computed in integers.
package struct Threshold: Sendable, Equatable, CustomStringConvertible {
    /// The threshold is `numerator / denominator`.
    package let numerator: Int64
    package let denominator: Int64

    package static let standard = Threshold(numerator: 1, denominator: 1000)

    package init(numerator: Int64, denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Parses `0.001`, `1e-3` is not accepted; `0.1%` means 0.001. Nil unless 0 ≤ value ≤ 1.
    package init?(parsing text: String) {
        var s = Substring(text.trimmingSpaces)
        var percent = false
        if s.hasSuffix("%") {
            percent = true
            s = s.dropLast()
        }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !s.isEmpty,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            parts.joined().count >= 1
        else { return nil }
        let whole = String(parts[0])
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard whole.count + fraction.count <= 15 else { return nil }
        var numerator = Int64(whole + fraction) ?? 0
        var denominator: Int64 = 1
        for _ in 0..<fraction.count { denominator *= 10 }
        if percent { denominator *= 100 }
        // Reduce, so the stored fraction is canonical.
        var a = numerator
        var b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        if a > 1 {
            numerator /= a
            denominator /= a
        }
        guard numerator <= denominator else { return nil }
        self.init(numerator: numerator, denominator: denominator)
    }

    package var value: Double { Double(numerator) / Double(denominator) }

    /// True when `count / requests` is strictly above the threshold.
    package func isExceeded(count: Int64, requests: Int64) -> Bool {
        guard requests > 0 else { return false }
        let left = count.multipliedFullWidth(by: denominator)
        let right = numerator.multipliedFullWidth(by: requests)
        return left.high > right.high || (left.high == right.high && left.low > right.low)
    }

    package var description: String { "\(value)" }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
