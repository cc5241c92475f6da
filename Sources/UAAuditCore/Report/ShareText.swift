/// Shares as percentages, as the summary, the HTML page and the alert messages show them.
///
/// The usual format has three decimals below 10% (`0.172%`), two below 100% (`12.35%`) and
/// one from there (`100.0%`). A threshold that format would round (`0.0001%`, `12.3456%`) is
/// shown with the decimals it needs instead, and so are the shares compared with it
/// (``decimals(for:)``): an alert never reads as `0.000%` over `0.000%`, nor its message as
/// over `0%`.
package enum ShareText {
    /// The most decimals a share is shown with: enough for the smallest threshold the command
    /// line accepts (0.00000000000001%).
    package static let maxDecimals = 16

    /// Nil when the usual format shows `threshold` exactly; else the decimals, from 3 to
    /// ``maxDecimals``, that show it exactly (or as closely as ``maxDecimals`` can) at any
    /// size: 4 for 0.000001 (`0.0001%`) and for 0.123456 (`12.3456%`), 3 for 0.12345.
    package static func decimals(for threshold: Double) -> Int? {
        if exact(threshold, places: usualPlaces(threshold, small: 3)) { return nil }
        for decimals in 3..<maxDecimals where exact(threshold, places: decimals) { return decimals }
        return maxDecimals
    }

    /// A share in a fixed number of decimals: with `decimals` nil the usual format (at most 6
    /// characters up to 100%), else `decimals` at any size.
    package static func fixed(_ share: Double, decimals: Int? = nil) -> String {
        let places = fitting(
            share, places: decimals.map { min(max($0, 0), maxDecimals) } ?? usualPlaces(share, small: 3))
        let scale = Int64(power(places))
        let scaled = Int64((share * 100 * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)"
            + (places == 0 ? "" : "." + String(repeating: "0", count: places - fraction.count) + fraction) + "%"
    }

    /// A share with at most 3 decimals, or `decimals` (nil: 3), and no trailing zeros:
    /// `1.987%`, `0.1%`, `0.0001%`.
    package static func trimmed(_ share: Double, decimals: Int? = nil) -> String {
        let places = fitting(share, places: min(max(decimals ?? 3, 0), maxDecimals))
        let scale = Int64(power(places))
        // `share * 100_000` for three decimals, as before: the constant first.
        let scaled = Int64((share * (100 * Double(scale))).rounded())
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(scaled / scale)" + (fraction.isEmpty ? "" : "." + fraction) + "%"
    }

    /// The usual format's decimals for a share: `small` below 10%, one fewer below 100%, two
    /// fewer from there (each boundary where rounding would reach the next size).
    private static func usualPlaces(_ share: Double, small: Int) -> Int {
        if share < 0.1 - 0.5 * power(-(small + 2)) { return small }
        if share < 1 - 0.5 * power(-(small + 1)) { return small - 1 }
        return small - 2
    }

    /// Whether `share` in percent has no digits past `places` decimals (within what a `Double`
    /// parsed from decimal text carries).
    private static func exact(_ share: Double, places: Int) -> Bool {
        let scaled = share * 100 * power(places)
        return abs(scaled - scaled.rounded()) <= abs(scaled) * 1e-14
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
