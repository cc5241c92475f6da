/// The alert threshold as an exact decimal fraction, so `0.1%` of 1000 requests is exactly 1.
///
/// An hour is over the threshold when `count / requests` is strictly above it, computed in integers.
package struct Threshold: Sendable, Equatable, CustomStringConvertible {
    /// The threshold is `numerator / denominator`.
    package let numerator: Int64
    package let denominator: Int64

    package static let standard = Threshold(numerator: 1, denominator: 1000)

    init(numerator: Int64, denominator: Int64) {
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

    /// Shares above this, written without `%`, are refused as probably meant as percentages.
    static let largestPlainShare = Threshold(numerator: 5, denominator: 100)

    /// Why `text` is refused although it parses: a share above 5% written without `%` (`0.1`
    /// means 10%, where `0.1%` was likely meant). The message shows both readings, e.g.
    /// "0.1 means 10%; for 0.1% write 0.1% or 0.001"; nil when `text` is not ambiguous.
    package static func ambiguity(of text: String) -> String? {
        let plain = text.trimmingSpaces
        guard !plain.hasSuffix("%"), let parsed = Threshold(parsing: plain),
            parsed.numerator * largestPlainShare.denominator > largestPlainShare.numerator * parsed.denominator
        else { return nil }
        let percent = shifted(plain, by: 2)
        let small = shifted(plain, by: -2)
        return "\(plain) means \(percent)%; for \(plain)% write \(plain)% or \(small)"
    }

    /// The decimal `text` (digits and at most one point) times 10^`places`, written plainly:
    /// `shifted("0.1", by: 2)` is "10", `shifted("0.1", by: -2)` is "0.001".
    static func shifted(_ text: String, by places: Int) -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array(String(parts[0]) + (parts.count > 1 ? String(parts[1]) : ""))
        var point = parts[0].count + places
        if point < 1 {
            digits.insert(contentsOf: Array(repeating: "0", count: 1 - point), at: 0)
            point = 1
        }
        if point > digits.count { digits.append(contentsOf: Array(repeating: "0", count: point - digits.count)) }
        var whole = String(digits[..<point])
        var fraction = String(digits[point...])
        while whole.count > 1, whole.first == "0" { whole.removeFirst() }
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? whole : whole + "." + fraction
    }

    /// True when `count / requests` is strictly above the threshold.
    func isExceeded(count: Int64, requests: Int64) -> Bool {
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
