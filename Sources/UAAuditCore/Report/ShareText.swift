/// Shares as percentages, as the summary, the HTML page and the alert messages show them.
///
/// Three decimals below 10% (`0.172%`), unless the threshold is finer: a threshold of 0.0001%
/// is shown as `0.0001%`, and the shares it is compared with get as many decimals, so that an
/// alert never reads as `0.000%` over `0.000%` (``decimals(for:)``).
package enum ShareText {
    /// The most decimals a share is shown with.
    package static let maxDecimals = 8

    /// The decimals, from 3 to ``maxDecimals``, that show `threshold` as a percentage exactly
    /// (or as closely as ``maxDecimals`` can): 3 for 0.001 (`0.100%`), 4 for 0.000001
    /// (`0.0001%`), 5 for 0.0012345 (`0.12345%`).
    package static func decimals(for threshold: Double) -> Int {
        var scale = 1000.0
        for decimals in 3..<maxDecimals {
            let scaled = threshold * 100 * scale
            if abs(scaled - scaled.rounded()) <= max(1e-6, abs(scaled) * 1e-14) { return decimals }
            scale *= 10
        }
        return maxDecimals
    }

    /// A share in a fixed number of decimals: `decimals` below 10% (`0.172%`), one fewer below
    /// 100% (`12.35%`), two fewer from there (`100.0%`); with the default 3, at most 6
    /// characters.
    package static func fixed(_ share: Double, decimals: Int = 3) -> String {
        let small = min(max(decimals, 3), maxDecimals)
        let places: Int
        if share < 0.1 - 0.5 * power(-(small + 2)) {
            places = small
        } else if share < 1 - 0.5 * power(-(small + 1)) {
            places = small - 1
        } else {
            places = small - 2
        }
        let scale = Int64(power(places))
        let scaled = Int64((share * 100 * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction + "%"
    }

    /// A share with at most `decimals` decimals and no trailing zeros: `1.987%`, `0.1%`,
    /// `0.0001%`.
    package static func trimmed(_ share: Double, decimals: Int = 3) -> String {
        let places = min(max(decimals, 0), maxDecimals)
        let scale = Int64(power(places))
        let scaled = Int64((share * 100 * Double(scale)).rounded())
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(scaled / scale)" + (fraction.isEmpty ? "" : "." + fraction) + "%"
    }

    /// 10 to the power `exponent` (exact for the small exponents used here).
    private static func power(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<abs(exponent) { value *= 10 }
        return exponent < 0 ? 1 / value : value
    }
}
