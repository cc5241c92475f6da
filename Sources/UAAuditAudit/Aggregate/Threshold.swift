import FoundationEssentials

/// The alert threshold as an exact decimal fraction, so `0.1%` of 1000 requests is exactly 1:
/// the one value the options, the configs, the state, the reports, merge and the shares' text
/// all hold.
///
/// An hour is over the threshold when `count / requests` is strictly above it, computed in integers.
/// In JSON it is a number in plain decimal (`0.00001`, never `1e-05`), read from its digits, not
/// through a `Double`; a config may also give it as text (`"0.1%"`, `RunConfig.ThresholdText`).
public struct Threshold: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The threshold is `numerator / denominator`.
    package let numerator: Int64
    package let denominator: Int64

    package static let standard = Threshold(numerator: 1, denominator: 1000)
    package static let zero = Threshold(numerator: 0, denominator: 1)

    init(numerator: Int64, denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The most significant digits a threshold is given with (leading zeros are none), and the
    /// most decimals its fraction may have: those of `0.00000000000001%`, the smallest share
    /// `--threshold` ever took, whose shares show in 14 decimals (a `Double` holds no more).
    static let maxDigits = 15
    static let maxDecimals = 16
    /// What a share must be, as messages say it.
    package static let rule =
        "a share from 0 to 1 of at most \(maxDigits) significant digits and \(maxDecimals) decimals"

    /// Parses `0.001`, `1e-3` is not accepted; `0.1%` means 0.001. Nil unless 0 ≤ value ≤ 1,
    /// with at most ``maxDigits`` significant digits and ``maxDecimals`` decimals as a share.
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
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        while fraction.last == "0" { fraction.removeLast() }
        let significant = (whole + fraction).drop { $0 == "0" }
        guard significant.count <= Self.maxDigits, fraction.count + (percent ? 2 : 0) <= Self.maxDecimals
        else { return nil }
        var numerator = Int64(significant.isEmpty ? "0" : String(significant)) ?? 0
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

    /// The nearest `Double`, for charts and metrics; comparisons use the fraction.
    package var value: Double { Double(numerator) / Double(denominator) }

    /// The decimals of the fraction written out (it always ends: the denominator divides a
    /// power of ten): 5 for 0.00001, 0 for 1.
    var decimals: Int {
        var places = 0
        var scale: Int64 = 1
        while scale % denominator != 0, places < Self.maxDecimals {
            scale *= 10
            places += 1
        }
        return places
    }

    /// The decimals as a percentage: 1 for 0.001 (`0.1%`), 0 for 0.01.
    package var percentDecimals: Int { max(0, decimals - 2) }

    /// Plain decimal text: `0.001`, `0.00001`, `1`.
    var decimal: String {
        let places = decimals
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = numerator * (scale / denominator)
        guard places > 0 else { return "\(scaled)" }
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// A JSON number as written (`0.00001`, `1e-5`, `1.5E-10`), exactly; nil unless it is a
    /// share as ``init(parsing:)`` takes it. No `%`: that is text, not a number.
    package init?(jsonNumber text: String) {
        guard let m = text.wholeMatch(of: /(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,3}))?/) else { return nil }
        let whole = String(m.output.1)
        let fraction = m.output.2.map(String.init) ?? ""
        let exponent = m.output.3.flatMap { Int($0) } ?? 0
        guard whole.count + fraction.count <= 64, abs(exponent) <= Self.maxDecimals + 64 else { return nil }
        var digits = Array(whole + fraction)
        var point = whole.count + exponent
        if point < 1 {
            digits.insert(contentsOf: Array(repeating: "0", count: 1 - point), at: 0)
            point = 1
        }
        if point > digits.count { digits.append(contentsOf: Array(repeating: "0", count: point - digits.count)) }
        self.init(parsing: String(digits[..<point]) + (point < digits.count ? "." + String(digits[point...]) : ""))
    }

    /// What a refused share reads: "0.30000000000000004 is not a share from 0 to 1 of at most 15
    /// significant digits and 16 decimals".
    static func refusal(_ text: String) -> String {
        "\(text) is not \(rule)"
    }

    /// From a JSON number, as reports write it (exactly to 38 digits, through `Decimal`:
    /// `0.00001` and `1e-5` alike; a config's shares, numbers or strings, are read as written,
    /// ``init(jsonNumber:)`` and ``init(parsing:)``); refused unless it is such a share.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let number = try? container.decode(Decimal.self) else {
            // Another type: the decoder's own error for a number ("… found a bool instead"); a
            // number past Decimal's range (1e-200): no share, named as JSON would write it.
            let number = try container.decode(Double.self)
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.refusal("\(number)"))
        }
        let text = number.description
        guard let parsed = Threshold(parsing: text) else {
            let shown = text.count <= 40 ? text : String(text.prefix(20)) + "…"
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.refusal(shown))
        }
        self = parsed
    }

    /// A JSON number in plain decimal.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard let number = Decimal(string: decimal) else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: encoder.codingPath, debugDescription: "threshold \(decimal)"))
        }
        try container.encode(number)
    }

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

    public var description: String { decimal }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
