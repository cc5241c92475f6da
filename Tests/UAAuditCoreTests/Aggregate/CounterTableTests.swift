import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct CounterTableTests {
    @Test func countsUpToItsSizeThenRefusesNewKeysButNotOldOnes() {
        let table = CounterTable(maxEntries: 100)
        for key in 0..<UInt64(100) { #expect(table.add(key * 7_919, Int64(key))) }
        #expect(!table.add(1_000_003))
        #expect(table.add(7_919 * 5, 10))
        #expect(table.count == 100)
        let e = (0..<table.count).first { table.key($0) == 7_919 * 5 }!
        #expect(table.value(e) == 15)
    }
}
