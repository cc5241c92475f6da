import Testing

@testable import UAAuditCore

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
}
