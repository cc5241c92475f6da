import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct StatusCountsTests {
    @Test(arguments: [
        ("200", 0, -1), ("204", 0, -1), ("301", 1, -1), ("400", 2, -1), ("401", 2, 5), ("403", 2, 6),
        ("404", 2, -1), ("413", 2, -1), ("499", 2, -1), ("500", 3, -1), ("504", 3, -1), ("101", 4, -1),
        ("000", 4, -1), ("999", 4, -1),
    ])
    func eachStatusCountsInItsFamilyAnd401Or403AlsoAlone(status: String, family: Int, exact: Int) {
        let slots = Array(status.utf8).withUnsafeBytes { StatusCounts.slots(of: $0) }
        #expect(slots.family == family && slots.exact == exact)
    }
}

@Suite struct PathTextTests {
    @Test(arguments: [
        ("/api/v2/me", "/api/v2/me"), ("/api/%6Cogin", "/api/login"), ("/a%2Fb", "/a/b"), ("/bad%zz%4", "/bad%zz%4"),
        (#"/q\x22x"#, "/q\"x"), ("/%E4%BD%A0", "/你"),
    ])
    func nginxEscapingAndPercentEncodingAreUndone(logged: String, path: String) {
        #expect(PathText.decode(Array(logged.utf8), escape: .default) == Array(path.utf8))
    }
}
