import Testing

@testable import UAAuditCore

/// Shares as percentages: three decimals as before for the default threshold, and as many as a
/// finer threshold needs.
@Suite struct ShareTextTests {
    @Test(arguments: [
        (0.001, 3), (0.05, 3), (0.0015, 3), (0.2, 3), (0.000_001, 4), (0.000_015, 4), (0.001_234_5, 5),
        (0.000_000_01, 6), (1.0 / 3, 8),
    ])
    func aThresholdGetsTheDecimalsThatShowIt(threshold: Double, decimals: Int) {
        #expect(ShareText.decimals(for: threshold) == decimals)
    }

    /// The summary's format before thresholds could ask for more decimals, as a reference: with
    /// the default three, every share reads as it did.
    static func threeDecimals(_ share: Double) -> String {
        let decimals = share < 0.09_9995 ? 3 : (share < 0.999_95 ? 2 : 1)
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((share * 100 * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction + "%"
    }

    @Test func theDefaultDecimalsShowEveryShareAsBefore() {
        var random = SplitMix64(state: 17)
        var shares: [Double] = [0, 1, 0.099_995, 0.099_994_9, 0.999_95, 0.999_949, 0.000_005, 0.000_004_9]
        for _ in 0..<20_000 { shares.append(Double(random.next() % 1_000_001) / 1_000_000) }
        for share in shares {
            #expect(ShareText.fixed(share) == Self.threeDecimals(share), "\(share)")
        }
    }

    @Test(arguments: [
        (0.000_005, 4, "0.0005%"), (0.000_000_4, 4, "0.0000%"), (0.000_001, 4, "0.0001%"), (0.001_234_5, 5, "0.12345%"),
        (0.123_456, 5, "12.3456%"), (1, 5, "100.000%"), (0.000_001, 8, "0.00010000%"), (0.5, 9, "50.0000000%"),
    ])
    func finerDecimals(share: Double, decimals: Int, text: String) {
        #expect(ShareText.fixed(share, decimals: decimals) == text)
    }

    @Test(arguments: [
        (0.001, 3, "0.1%"), (0.000_001, 3, "0%"), (0.000_001, 4, "0.0001%"), (0.001_234_5, 5, "0.12345%"),
        (1, 8, "100%"), (0.000_000_015, 8, "0.0000015%"),
    ])
    func trimmedDecimals(share: Double, decimals: Int, text: String) {
        #expect(ShareText.trimmed(share, decimals: decimals) == text)
    }
}
