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
}
