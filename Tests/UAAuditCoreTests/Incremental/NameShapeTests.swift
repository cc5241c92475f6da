import Testing

@testable import UAAuditCore

@Suite struct NameShapeTests {
    /// (a, b, same shape, a before b).
    @Test(arguments: [
        ("access-2026-12-05.log", "access-2026-12-06.log", true, true),
        ("access-2026-12-06.log", "access-2026-12-05.log", true, false),
        ("access-2026-12-31.log", "access-2027-01-01.log", true, true),
        ("access-2026-12-05.log", "access-2026-12-05.log", true, false),
        ("access-9.log", "access-10.log", true, true),
        ("access-09.log", "access-10.log", true, true),
        ("access-1796634303.log", "access-1796720703.log", true, true),
        ("access-2026-12-05.log", "error-2026-12-06.log", false, true),
        ("access-2026-12-05.log", "access-2026-12-05.log.gz", false, false),
        ("access-20261205.log", "access-2026-12-06.log", false, false),
    ])
    func shapesAndOrder(a: String, b: String, same: Bool, before: Bool) throws {
        let (x, y) = (try #require(NameShape(a)), try #require(NameShape(b)))
        #expect(x.isSameShape(as: y) == same)
        if same { #expect(x.precedes(y) == before) }
    }

    @Test func aNameWithoutDigitsHasNoShape() {
        #expect(NameShape("access.log") == nil)
    }
}
