import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

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

    struct Config: Decodable {
        struct Format: Decodable { var name: String? }
        var format: Format?
        var logs: [String]?
        var alerts: [[String: String]]?
    }

    /// A value of the wrong type is named as the file spells it, with the JSON kind expected,
    /// never Swift's type names.
    @Test(arguments: [
        (#"{"format": "ua_log"}"#, "wrong type at .format: format must be an object (not a string)"),
        (#"{"logs": "a.log"}"#, "wrong type at .logs: logs must be a list (not a string)"),
        (#"{"format": {"name": 3}}"#, "wrong type at .format.name: format.name must be a string (not a number)"),
        (#"{"alerts": [{"url": 1}]}"#, "wrong type at .alerts[0].url: alerts[0].url must be a string (not a number)"),
        (#"[]"#, "wrong type at the top level: the top level must be an object (not a list)"),
        (#"{"format": null, "logs": [null]}"#, "wrong type at .logs[0]: logs[0] must be a string (not null)"),
    ])
    func aWrongTypeSaysWhatTheFileShouldHold(text: String, message: String) throws {
        do {
            _ = try JSONValueDecoder.decode(Config.self, from: try JSONValue.parse(Array(text.utf8)))
            Issue.record("decoded \(text)")
        } catch {
            #expect(JSONErrors.describe(error) == message)
        }
    }
}
