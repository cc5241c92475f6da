import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct UAFamilyTests {
    @Test func digitRunsCollapseToOneHash() {
        let family = UAFamily.of(Array("MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)".utf8))
        #expect(String(decoding: family, as: UTF8.self) == "MyApp/#.#.# (iPhone; iPhone#,#; Scale/#.#; iOS #_#)")
        #expect(UAFamily.of(Array("MyApp/10.0.123 (iPhone; iPhone9,1; Scale/2.00; iOS 9_3)".utf8)) == family)
        // A new shape is a new family: the separator changed.
        #expect(UAFamily.of(Array("MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17.4)".utf8)) != family)
        #expect(UAFamily.of([]) == [])
        #expect(UAFamily.of(Array("12345".utf8)) == Array("#".utf8))
    }

    @Test func familiesAreCutToTheirBound() {
        let long = Array(String(repeating: "ab1", count: 1000).utf8)
        let family = UAFamily.of(long)
        #expect(family.count == UAFamily.maxBytes)
        #expect(family.prefix(6) == Array("ab#ab#".utf8)[...])
    }
}
