import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

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

    /// Issue 29 review: date order whatever the field order: (names, the expected order of
    /// them under every reading `dateOrders` finds; nil when it finds two).
    @Test(arguments: [
        (["access-31-12-2026.log", "access-01-01-2027.log", "access-02-01-2027.log"], true),
        (["access-12-31-2026.log", "access-01-01-2027.log", "access-01-02-2027.log"], true),
        (["access-2026-12-31.log", "access-2027-01-01.log", "access-2027-01-02.log"], true),
        (["access-2026-31-12.log", "access-2027-01-01.log", "access-2027-02-01.log"], true),
        (["access-31-12-2026-23.log", "access-01-01-2027-00.log", "access-01-01-2027-01.log"], true),
        (["access-1796634303.log", "access-1796720703.log"], true),
        // Day and month both 12 or less: two readings.
        (["access-05-12-2026.log", "access-06-12-2026.log", "access-08-12-2026.log"], false),
    ])
    func dateOrderWhateverTheFieldOrder(names: [String], decided: Bool) throws {
        let shapes = try names.map { try #require(NameShape($0)) }
        let orders = NameShape.dateOrders(shapes)
        #expect(orders.count == (decided ? 1 : 2))
        for order in orders {
            for (a, b) in zip(shapes, shapes.dropFirst()) {
                #expect(a.precedes(b, order: order) && !b.precedes(a, order: order), "\(names) \(order)")
            }
        }
    }

    @Test func theTwoReadingsOfAnAmbiguousDateDisagreeOnANameOfAnotherMonth() throws {
        let (old, current, other) = (
            try #require(NameShape("access-05-12-2026.log")), try #require(NameShape("access-08-12-2026.log")),
            try #require(NameShape("access-06-11-2026.log"))
        )
        let orders = NameShape.dateOrders([old, current, other])
        // Day first: 6 Nov, before 5 Dec. Month first: 11 June, between 12 May and 12 Aug.
        #expect(orders.map { old.precedes(other, order: $0) && other.precedes(current, order: $0) } == [false, true])
    }

    @Test func aNameWithoutDigitsHasNoShape() {
        #expect(NameShape("access.log") == nil)
    }
}
