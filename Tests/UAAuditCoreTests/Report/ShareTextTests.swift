import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Shares as percentages: as before for a threshold the usual format shows exactly, and with
/// the decimals a finer one needs.
@Suite struct ShareTextTests {
    /// A threshold as typed (`Threshold(parsing:)`, which the tests' literals always pass).
    static func t(_ text: String) -> Threshold { Threshold(parsing: text)! }

    @Test(
        arguments: [
            ("0.001", nil), ("0.05", nil), ("0.0015", nil), ("0.2", nil), ("0.1234", nil), ("0.5", nil), ("1", nil),
            ("0", nil), ("0.000001", 4), ("0.000015", 4), ("0.0012345", 5), ("0.00000001", 6), ("0.12345", 3),
            ("0.123456", 4), ("0.9999999", 5), ("0.0000000000001", 11), ("0.00000000000001%", 14), ("0.333333", 4),
            ("0.01234567890123", 12), ("0.99999999999999", 12), ("0.05000000000001", 12), ("0.12345678901234", 12),
            ("0.00001", nil), ("0.000012", 4), ("1e-5", nil),
        ] as [(String, Int?)])
    func aThresholdGetsTheDecimalsThatShowIt(threshold: String, decimals: Int?) {
        if let parsed = Threshold(parsing: threshold) {
            #expect(ShareText.decimals(for: parsed) == decimals)
        } else {
            #expect(decimals == nil, "\(threshold) is refused")
        }
    }

    /// The summary's format before thresholds could ask for more decimals, as a reference: the
    /// usual format shows every share as it did.
    static func usual(_ share: Double) -> String {
        let decimals = share < 0.09_9995 ? 3 : (share < 0.999_95 ? 2 : 1)
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((share * 100 * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction + "%"
    }

    /// The messages' format before, as a reference.
    static func messageShare(_ share: Double) -> String {
        let thousandths = Int64((share * 100_000).rounded())
        var text = String(thousandths / 1000)
        var fraction = String(thousandths % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return text + "%"
    }

    /// The drift sentences' and the coverage warnings' one decimal (``InsightReport/percent(_:)``),
    /// now ``ShareText/trimmed(_:decimals:)``: every share as its own formula wrote it.
    @Test func theOneDecimalFormatShowsEveryShareAsBefore() {
        func before(_ share: Double) -> String {
            let tenths = Int64((share * 1000).rounded())
            return "\(tenths / 10)" + (tenths % 10 == 0 ? "" : ".\(abs(tenths % 10))") + "%"
        }
        var random = SplitMix64(state: 29)
        var shares: [Double] = [0, 1, 0.000_5, 0.000_49, 0.999_95, 0.583]
        for n in 1...400 { for k in 0...n { shares.append(Double(k) / Double(n)) } }
        for _ in 0..<20_000 { shares.append(Double(random.next() % 1_000_001) / 1_000_000) }
        for share in shares { #expect(InsightReport.percent(share) == before(share), "\(share)") }
        #expect(InsightReport.percent(0.583) == "58.3%")
    }

    /// Every share of n requests up to 400 (the halves where two formulas can round apart, as
    /// 209 of 320 does), and 20,000 random ones.
    @Test func theUsualFormatsShowEveryShareAsBefore() {
        var random = SplitMix64(state: 17)
        var shares: [Double] = [0, 1, 0.099_995, 0.099_994_9, 0.999_95, 0.999_949, 0.000_005, 0.000_004_9, 209.0 / 320]
        for n in 1...400 { for k in 0...n { shares.append(Double(k) / Double(n)) } }
        for _ in 0..<20_000 { shares.append(Double(random.next() % 1_000_001) / 1_000_000) }
        for share in shares {
            #expect(ShareText.fixed(share) == Self.usual(share), "\(share)")
            #expect(ShareText.trimmed(share) == Self.messageShare(share), "\(share)")
        }
        #expect(ShareText.trimmed(209.0 / 320) == "65.312%")
    }

    @Test(arguments: [
        (0.000_005, 4, "0.0005%"), (0.000_000_4, 4, "0.0000%"), (0.000_001, 4, "0.0001%"), (0.001_234_5, 5, "0.12345%"),
        (0.123_456, 4, "12.3456%"), (1, 5, "100.00000%"), (0.999_999_9, 5, "99.99999%"), (0.000_001, 8, "0.00010000%"),
        (0.000_000_000_000_1, 11, "0.00000000001%"), (0.5, 20, "50.0000000000000000%"),
        (1, 16, "100.0000000000000000%"),
    ])
    func finerDecimals(share: Double, decimals: Int, text: String) {
        #expect(ShareText.fixed(share, decimals: decimals) == text)
    }

    /// Against a threshold: a share that would read as the threshold though it is not gets
    /// decimals until it does not; the threshold itself, and every other share, as before.
    @Test(
        arguments: [
            (1.0 / 250_001, "0", "0.0004%", "0.0004%"), (0, "0", "0.000%", "0%"), (0.001, "0.001", "0.100%", "0.1%"),
            (0.001_000_4, "0.001", "0.10004%", "0.10004%"), (0.000_999_6, "0.001", "0.09996%", "0.09996%"),
            (0.001_72, "0.001", "0.172%", "0.172%"), (1, "0.99999999999999", "100.000000000000%", "100%"),
            (0.999_999_999_999_99, "0.99999999999999", "99.999999999999%", "99.999999999999%"),
            (0.333_333_333_333_333_3, "0.333333", "33.33333%", "33.33333%"), (0.25, "0.25", "25.00%", "25%"),
            (0.000_01, "0.00001", "0.001%", "0.001%"), (0.000_010_4, "0.00001", "0.00104%", "0.00104%"),
        ] as [(Double, String, String, String)])
    func aShareNeverReadsAsTheThresholdItIsNot(share: Double, threshold: String, fixed: String, trimmed: String) {
        #expect(ShareText.fixed(share, against: Self.t(threshold)) == fixed)
        #expect(ShareText.trimmed(share, against: Self.t(threshold)) == trimmed)
    }

    /// With a threshold's decimals, the two formats round every share alike (the summary and
    /// the messages never disagree on a digit).
    @Test func bothFormatsRoundAlikeWithAThresholdsDecimals() {
        for threshold in ["0.000001", "0.12345", "0.00000000000001%"] {
            let decimals = ShareText.decimals(for: Self.t(threshold))
            for n in 1...400 {
                for k in 0...n {
                    let share = Double(k) / Double(n)
                    var fixed = ShareText.fixed(share, decimals: decimals).dropLast()
                    if fixed.contains(".") { while fixed.last == "0" { fixed = fixed.dropLast() } }
                    if fixed.last == "." { fixed = fixed.dropLast() }
                    #expect(fixed + "%" == ShareText.trimmed(share, decimals: decimals), "\(k)/\(n)")
                }
            }
        }
    }

    @Test(
        arguments: [
            (0.001, nil, "0.1%"), (0.000_001, nil, "0%"), (0.000_001, 4, "0.0001%"), (0.001_234_5, 5, "0.12345%"),
            (1, 8, "100%"), (0.000_000_015, 8, "0.0000015%"), (0.123_456, 4, "12.3456%"),
        ] as [(Double, Int?, String)])
    func trimmedDecimals(share: Double, decimals: Int?, text: String) {
        #expect(ShareText.trimmed(share, decimals: decimals) == text)
    }

    /// The drift sentences' shares against their limits: one decimal as before, the limit as
    /// given, and never reading as the limit when they are not ("carries 5% of the hour, over
    /// 5%" for 5.0001%).
    @Test(
        arguments: [
            (0.050_001, "0.05", "5.0001%"), (0.05, "0.05", "5%"), (0.123_457, "0.123456", "12.3457%"),
            (0.123_456, "0.123456", "12.3456%"), (0.400_01, "0.4", "40.001%"), (0.583, "0.5", "58.3%"),
            (0.6, "0.5", "60%"),
        ] as [(Double, String, String)])
    func driftSharesAgainstTheirLimits(share: Double, limit: String, text: String) {
        #expect(InsightReport.share(share, Self.t(limit)) == text)
    }

    /// Past the usual format a share first gets three decimals at every size: 50.001%, not
    /// 50.0010%.
    @Test func theFirstStepPastTheUsualFormatIsThreeDecimals() {
        #expect(ShareText.fixed(0.500_01, against: Self.t("0.5")) == "50.001%")
        #expect(ShareText.fixed(0.5, against: Self.t("50%")) == "50.00%")
        #expect(ShareText.fixed(0.000_999_6, against: Self.t("0.1%")) == "0.09996%")
    }
}
