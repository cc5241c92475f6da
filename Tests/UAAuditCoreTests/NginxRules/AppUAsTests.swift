import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The app's UAs tried against nginx's rules: the examples of the rules' own classes, then the
/// most frequent UAs of each class in the lines read.
@Suite struct AppUAsTests {
    @Test func examplesFirstThenTheMostFrequentOfEachClassEachOnce() throws {
        let rules = try RuleSet(
            rules: [
                Rule(name: "webview", sources: ["^Mozilla/.* MyApp/"]), Rule(name: "urlsession", sources: ["^MyApp/"]),
                Rule(name: "inconsistent", sources: ["CFNetwork/"]),
            ],
            examples: [
                RuleExample(ua: Array("MyApp/1 (iPhone)".utf8), className: "urlsession"),
                RuleExample(ua: Array("Safari/1".utf8), className: "other"),
            ])
        var seen: [String: Int64] = ["MyApp/1 (iPhone)": 50, "Safari/1": 900, "X/1 CFNetwork/1": 3]
        for i in 0..<8 { seen["MyApp/\(i + 2)"] = Int64(10 + i) }
        let tested = AppUAs.select(rules: rules, seen: seen)
        #expect(
            tested.map { "\($0.ua) \($0.className) \($0.requests) \($0.example)" } == [
                "MyApp/1 (iPhone) urlsession 50 true", "MyApp/9 urlsession 17 false", "MyApp/8 urlsession 16 false",
                "MyApp/7 urlsession 15 false", "MyApp/6 urlsession 14 false", "X/1 CFNetwork/1 inconsistent 3 false",
            ])
        // The example is one of the five most frequent: the sixth is not taken in its place.
        #expect(!tested.contains { $0.ua == "MyApp/5" })
        let counts = AppUAs.requests(
            rules: rules, statuses: ["MyApp/2": [403: 4, 200: 1], "X/1 CFNetwork/1": [403: 2], "Safari/1": [403: 9]],
            status: 403)
        #expect(counts == ["urlsession": 4, "inconsistent": 2, "other": 9])
    }
}
