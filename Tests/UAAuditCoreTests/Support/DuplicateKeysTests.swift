import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The first key given twice in one object, found as the document is parsed: by its place,
/// compared as decoded; none in JSON that is none (the decoder then says where it breaks).
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
            (#"{"a": 1, "a": "#, nil),
            (#"{"a": 1, "\u0061": 2}"#, "a"),
            (#"{"x": [{"y": {"z": 1, "z": 2}}]}"#, "x[0].y.z"),
            (#"{"a": 1, "a"#, nil),
            (#"not json"#, nil),
        ] as [(String, String?)])
    func theFirstKeyGivenTwiceInOneObjectIsNamedByItsPlace(json: String, place: String?) {
        var duplicate: String?
        _ = try? JSONValue.parse(Array(json.utf8), firstDuplicate: &duplicate)
        #expect(duplicate == place)
    }
}

/// A key read from a file is written into the message with its control characters escaped:
/// a newline in it cannot forge a second `uaaudit:` line.
@Suite struct KeyMessageTests {
    @Test func controlCharactersInAKeyAreEscaped() {
        #expect(
            DuplicateKeys.message("a\nuaaudit: all good\u{1B}[2J")
                == #"key 'a\nuaaudit: all good\u{1B}[2J' is given twice; give it once (JSON keeps only one of the values, in silence)"#
        )
        let unknown = ConfigKeys.Unknown(path: "x\ty", suggestion: nil, allowed: ["a"])
        #expect(unknown.description == #"unknown key 'x\ty' (keys there: a)"#)
    }
}
