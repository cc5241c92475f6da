import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct DuplicateKeysTests {
    @Test(
        arguments: [
            (#"{"a": 1, "b": 2}"#, nil),
            (#"{"threshold": "1%", "threshold": "5%"}"#, "threshold"),
            (#"{"insight": {"client_key": "x", "baseline_hours": 3, "client_key": "y"}}"#, "insight.client_key"),
            (#"{"rules": [{"class": "a"}, {"class": "b", "class": "c"}]}"#, "rules[1].class"),
            (#"{"a": {"x": 1}, "b": {"x": 1}}"#, nil),
            (#"{"a": ["{\"a\": 1, \"a\": 2}", "x}"], "b": "\"a\""}"#, nil),
            (#"{"a": [[1, 2], {"k": 1}, {"k": 1, "k": 2}]}"#, "a[2].k"),
            (#"{"a": 1, "a": "#, "a"),
            (#"{"a": 1, "a"#, nil),
            (#"not json"#, nil),
        ] as [(String, String?)])
    func theFirstKeyGivenTwiceInOneObjectIsNamedByItsPlace(json: String, place: String?) {
        #expect(DuplicateKeys.first(in: Array(json.utf8)) == place)
    }
}
