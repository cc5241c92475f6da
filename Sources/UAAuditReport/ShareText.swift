import UAAuditAudit

/// Shares as percentages, as the summary, the HTML page and the alert messages show them.
///
/// The usual format has three decimals below 10% (`0.172%`), two below 100% (`12.35%`) and
/// one from there (`100.0%`); the messages' has at most three and no trailing zeros. A share
/// and the threshold it is compared with are shown with ``fixed(_:against:)`` or
/// ``trimmed(_:against:)``: in the usual format when it shows the threshold as given, else
/// with the decimals the threshold needs, at every size (``decimals(for:)``); and a share
/// that would read the same as the threshold though it is not gets decimals until it does
/// not. So an alert never reads as `0.000%` over `0.000%`, nor its message as over `0%`.
package enum ShareText {
    /// The most decimals a share is shown with: enough for the smallest threshold the command
    /// line accepts (0.00000000000001%).
    static let maxDecimals = 16

    /// `share` in the summary's format, against `threshold` (see the type's description).
    package static func fixed(_ share: Double, against threshold: Threshold) -> String {
        // Past the usual format: three decimals at every size first (`50.001%`), then more.
        against(threshold.value, share, start: decimals(for: threshold), usual: 2) { fixed($0, decimals: $1) }
    }

    /// `share` in the messages' format, with at most `usual` decimals where the threshold needs
    /// no more (3; the drift sentences' 1), against `threshold` (see the type's description).
    package static func trimmed(_ share: Double, against threshold: Threshold, usual: Int = 3) -> String {
        let needed = threshold.percentDecimals
        let start = needed <= usual ? nil : min(needed, maxDecimals)
        return against(threshold.value, share, start: start, usual: usual) { trimmed($0, decimals: $1 ?? usual) }
    }

    /// `format(share)`, with decimals past `start` (nil: the usual format, whose next step is
    /// `usual` + 1) while it reads as `format(threshold)` and the two differ.
    private static func against(
        _ threshold: Double, _ share: Double, start: Int?, usual: Int, _ format: (Double, Int?) -> String
    ) -> String {
        var decimals = start
        var (text, limit) = (format(share, decimals), format(threshold, decimals))
        guard share != threshold else { return text }
        while text == limit, (decimals ?? usual) < maxDecimals {
            decimals = (decimals ?? usual) + 1
            (text, limit) = (format(share, decimals), format(threshold, decimals))
        }
        return text
    }

    /// Nil when the usual format shows `threshold` as given; else the decimals, from 3 to
    /// ``maxDecimals``, that show it: 4 for 0.000001 (`0.0001%`) and for 0.123456
    /// (`12.3456%`), 3 for 0.12345: the threshold's own decimals, so it shows as typed.
    package static func decimals(for threshold: Threshold) -> Int? {
        let needed = threshold.percentDecimals
        return needed <= usualPlaces(threshold.value) ? nil : min(max(needed, 3), maxDecimals)
    }

    /// A share with `decimals` nil in the usual format (at most 6 characters up to 100%), else
    /// with `decimals` decimals at any size.
    package static func fixed(_ share: Double, decimals: Int? = nil) -> String {
        let places: Int
        let scaled: Int64
        if let decimals {
            places = fitting(share, places: min(max(decimals, 0), maxDecimals))
            scaled = Int64((share * (100 * power(places))).rounded())
        } else {
            // As the summary always has: `share * 100 * scale`, from the left.
            places = usualPlaces(share)
            scaled = Int64((share * 100 * power(places)).rounded())
        }
        let scale = Int64(power(places))
        let fraction = String(scaled % scale)
        return "\(scaled / scale)"
            + (places == 0 ? "" : "." + String(repeating: "0", count: places - fraction.count) + fraction) + "%"
    }

    /// A share with at most 3 decimals, or `decimals` (nil: 3), and no trailing zeros:
    /// `1.987%`, `0.1%`, `0.0001%`. Rounded as ``fixed(_:decimals:)`` rounds with decimals.
    package static func trimmed(_ share: Double, decimals: Int? = nil) -> String {
        let places = fitting(share, places: min(max(decimals ?? 3, 0), maxDecimals))
        let scale = Int64(power(places))
        // `share * 100_000` for three decimals, as the messages always have.
        let scaled = Int64((share * (100 * Double(scale))).rounded())
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(scaled / scale)" + (fraction.isEmpty ? "" : "." + fraction) + "%"
    }

    /// The usual format's decimals for a share: 3 below 10%, 2 below 100%, 1 from there (each
    /// boundary where rounding would reach the next size).
    private static func usualPlaces(_ share: Double) -> Int {
        if share < 0.099_995 { return 3 }
        if share < 0.999_95 { return 2 }
        return 1
    }

    /// `places`, or fewer where the scaled share would not fit in an `Int64`.
    private static func fitting(_ share: Double, places: Int) -> Int {
        var places = places
        while places > 0, !(abs(share) * 100 * power(places) < 9e18) { places -= 1 }
        return places
    }

    /// 10 to the power `exponent` (exact for the small exponents used here).
    private static func power(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<abs(exponent) { value *= 10 }
        return exponent < 0 ? 1 / value : value
    }
}
