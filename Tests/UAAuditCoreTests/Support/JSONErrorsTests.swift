import Testing

@testable import UAAuditCore

/// JSON syntax errors say where: line and column (1-based, in bytes), and a hint when the text
/// simply stops.
@Suite struct JSONErrorsTests {
    @Test(arguments: [
        ("{\"a\": ", "unexpected end of file at line 1, column 7 (truncated?)"),
        ("{\"a\": 1,\n\"b\": x}", "invalid value at line 2, column 6"),
        ("{\"a\": 1,\n\n  \"b\" 2}", "invalid value at line 3, column 7"),
        ("", "unexpected end of file at line 1, column 1 (truncated?)"),
    ])
    func aSyntaxErrorSaysWhere(text: String, message: String) {
        #expect(JSONErrors.syntaxError(in: Array(text.utf8)) == message)
    }

    @Test func validJSONHasNoSyntaxError() {
        #expect(JSONErrors.syntaxError(in: Array("{\"a\": [1, \"x\"]}".utf8)) == nil)
    }
}
