import FoundationEssentials
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ThresholdTests {
    static let parses: [(String, Int64, Int64)] = [
        ("0.001", 1, 1000), ("0.1%", 1, 1000), ("0.0015", 3, 2000), ("1", 1, 1), ("0", 0, 1), (".5", 1, 2),
        ("2%", 1, 50), (" 0.25 ", 1, 4),
    ]

    @Test(arguments: parses)
    func parsesExactFractions(text: String, numerator: Int64, denominator: Int64) throws {
        let t = try #require(Threshold(parsing: text))
        #expect(t.numerator == numerator)
        #expect(t.denominator == denominator)
    }

    @Test(arguments: ["", "abc", "1.5", "-0.1", "1e-3", "0.1.2", "200%", "%", "."])
    func rejects(text: String) {
        #expect(Threshold(parsing: text) == nil)
    }

    @Test func strictlyAboveInIntegers() {
        let t = Threshold.standard
        #expect(!t.isExceeded(count: 1, requests: 1000))
        #expect(t.isExceeded(count: 2, requests: 1000))
        #expect(!t.isExceeded(count: 1000, requests: 1_000_000))
        #expect(t.isExceeded(count: 1001, requests: 1_000_000))
        #expect(!t.isExceeded(count: 0, requests: 0))
        #expect(t.isExceeded(count: 1, requests: 999))
        // Large counts do not overflow.
        #expect(!t.isExceeded(count: Int64.max / 1000, requests: Int64.max))
    }

    @Test(arguments: [
        ("0.1", "0.1 means 10%; for 0.1% write 0.1% or 0.001"),
        ("0.5", "0.5 means 50%; for 0.5% write 0.5% or 0.005"),
        ("1", "1 means 100%; for 1% write 1% or 0.01"),
        (".25", ".25 means 25%; for .25% write .25% or 0.0025"),
        ("0.051", "0.051 means 5.1%; for 0.051% write 0.051% or 0.00051"),
    ])
    func aPlainShareAboveFivePercentIsAmbiguous(text: String, readings: String) {
        #expect(Threshold.ambiguity(of: text) == readings)
    }

    @Test(arguments: ["0.05", "0.001", "0", "10%", "0.1%", "abc"])
    func sharesUpToFivePercentAndPercentagesAreNot(text: String) {
        #expect(Threshold.ambiguity(of: text) == nil)
    }

    /// In JSON the threshold is a number in plain decimal, read from its digits exactly (as a
    /// report's schema says: a config's strings are read as `--threshold` reads its text).
    @Test(
        arguments: [
            ("0.00001", "0.00001"), ("1e-5", "0.00001"), ("1E-05", "0.00001"), ("0.001", "0.001"), ("1", "1"),
            ("0", "0"), ("1.0", "1"), ("0.000015", "0.000015"),
            ("0.12345678901234", "0.12345678901234"), ("2.5e-13", "0.00000000000025"),
            ("0.333333333333333", "0.333333333333333"), ("1e-15", "0.000000000000001"),
            ("0.0000000000000001", "0.0000000000000001"),
        ])
    func readsAndWritesJSONInPlainDecimal(json: String, written: String) throws {
        let threshold = try JSONDecoder().decode(Threshold.self, from: Data(json.utf8))
        #expect(threshold.decimal == written)
        #expect(threshold.description == written)
        #expect(String(decoding: try JSONEncoder().encode(threshold), as: UTF8.self) == written)
        #expect(try JSONDecoder().decode(Threshold.self, from: JSONEncoder().encode(threshold)) == threshold)
    }

    @Test(arguments: [
        "0.30000000000000004", "0.1234567890123456", "1.5", "-0.001", "\"1e-3\"", "\"abc\"", "true", "1e-300",
        "\"0.1%\"", "\"0.001\"", "1e-17",
    ])
    func refusesJSONThatIsNotAShareOfFifteenDigits(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Threshold.self, from: Data(json.utf8)) }
    }

    /// Fifteen significant digits, leading zeros none, and at most 16 decimals as a share: every
    /// share `--threshold` takes is written back and read again (`33.3333333333333%` is
    /// 0.333333333333333, sixteen digits with its leading zero).
    @Test(arguments: [
        ("33.3333333333333%", true), ("0.333333333333333", true), ("4.99999999999999%", true),
        ("0.00000000000001%", true), ("0.0000000000000001", true), ("0.00000000000000001", false),
        ("0.000000000000001%", false),
        ("0.3333333333333333", false), ("0.0010000000000000000000", true), ("000000000000000000001", true),
    ])
    func fifteenSignificantDigits(text: String, parses: Bool) throws {
        let t = Threshold(parsing: text)
        #expect((t != nil) == parses)
        if let t { #expect(Threshold(parsing: t.description) == t) }
    }

    /// A JSON number as written, exactly: its exponent expanded, never through a `Double` or a
    /// `Decimal` (which keeps 38 digits: 0.05000…01 would read as 0.05).
    @Test(
        arguments: [
            ("0.00001", "0.00001"), ("1e-5", "0.00001"), ("1E-05", "0.00001"), ("5e-1", "0.5"), ("1", "1"), ("0", "0"),
            ("1.5e-10", "0.00000000015"), ("0.05000000000000000000000000000000000000001", nil), ("1e-300", nil),
            ("1e300", nil), ("-0.001", nil), ("0.1%", nil), ("1e", nil), (".5", nil),
            ("0.0010000000000000000000", "0.001"),
        ] as [(String, String?)])
    func jsonNumbersAreReadAsWritten(text: String, decimal: String?) {
        #expect(Threshold(jsonNumber: text)?.description == decimal)
    }

    @Test(arguments: [("0.001", 3, 1), ("0.00001", 5, 3), ("1", 0, 0), ("0.5", 1, 0), ("0.1%", 3, 1), ("0.0015", 4, 2)])
    func decimalsOfTheFraction(text: String, decimals: Int, percent: Int) throws {
        let t = try #require(Threshold(parsing: text))
        #expect(t.decimals == decimals)
        #expect(t.percentDecimals == percent)
    }
}
