import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The small JSON reader that stands in for `JSONSerialization`: values as written, syntax
/// errors with the byte where they were found, and compact output with sorted keys.
@Suite struct JSONValueTests {
    @Test func valuesOfEveryKind() throws {
        let text = #"{"a": [1, -2.5e3, true, false, null], "b": {"c": "x\"\n\u00e9\ud83d\ude00"}, "a2": 0}"#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(
            value
                == .object([
                    "a": .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]),
                    "b": .object(["c": .string("x\"\né😀")]), "a2": .number("0"),
                ]))
        #expect(value.object?["a"]?.array?[1].double == -2500)
        #expect(value.object?["b"]?.object?["c"]?.string == "x\"\né😀")
        #expect(
            String(decoding: value.bytes, as: UTF8.self)
                == #"{"a":[1,-2.5e3,true,false,null],"a2":0,"b":{"c":"x\"\né😀"}}"#)
    }

    @Test(arguments: [
        ("", "unexpected end of file", 0),
        ("[1, 2", "unexpected end of file", 5),
        ("{\"a\" 1}", "invalid value", 5),
        ("[01]", "number with leading zero", 1),
        ("[1.]", "invalid value", 3),
        ("\"a\\q\"", #"invalid escape (JSON has \" \\ \/ \b \f \n \r \t \uXXXX)"#, 3),
        ("\"a\tb\"", "control character in a string (write it as \\u0009)", 2),
        ("{\"a\": 1,}", "a comma before '}' (JSON has none after the last member)", 8),
        ("[1, 2 , ]", "a comma before ']' (JSON has none after the last item)", 8),
        ("\u{FEFF}[1] x", "garbage at end", 7),
        ("\u{FEFF}{\"a\":", "unexpected end of file", 8),
        ("\"\\ud800\"", "invalid unicode escape", 7),
        ("[1] x", "garbage at end", 4),
        ("tru", "unexpected end of file", 3),
        ("{\"a\":\u{01}}", "invalid value", 5),
    ])
    func syntaxErrorsSayWhat(text: String, what: String, offset: Int) {
        #expect(throws: JSONValue.SyntaxError(what: what, offset: offset)) { try JSONValue.parse(Array(text.utf8)) }
    }

    /// A UTF-8 byte order mark is passed over, as the decoder passes it; UTF-16 and UTF-32 are
    /// named (the decoder would read them: the checks must see what it sees).
    @Test func aByteOrderMarkIsTakenAndUTF16IsNamed() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)).object?["a"]?.double == 1)
        for bytes: [UInt8] in [
            [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], [0x7B, 0x00, 0x7D, 0x00], [0xFE, 0xFF, 0x00, 0x7B],
        ] {
            #expect(throws: JSONValue.SyntaxError(what: "UTF-16 or UTF-32 text (save the file as UTF-8)", offset: 0)) {
                try JSONValue.parse(bytes)
            }
        }
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        #expect(throws: JSONValue.SyntaxError(what: "invalid UTF-8 in a string", offset: 0)) {
            try JSONValue.parse([0x22, 0xFF, 0xFE, 0x22])
        }
    }

    @Test func nestingIsBounded() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 600)
        #expect(throws: JSONValue.SyntaxError(what: "too deeply nested", offset: 512)) { try JSONValue.parse(deep) }
    }

    @Test func controlCharactersAreEscapedOnOutput() {
        #expect(String(decoding: JSONValue.string("a\u{01}\t\\").bytes, as: UTF8.self) == #""a\u0001\t\\""#)
    }
}

/// `%XX` decoding and encoding in place of Foundation's.
@Suite struct PercentEncodingTests {
    @Test(
        arguments: [
            ("a%2Fb%2fc", "a/b/c"), ("%C3%A9", "é"), ("plain+text", "plain+text"), ("%", nil), ("%4", nil),
            ("%zz", nil),
            ("%FF", nil),
        ] as [(String, String?)])
    func decoding(text: String, decoded: String?) {
        #expect(PercentEncoding.decode(text) == decoded)
    }

    @Test func encodingLeavesOnlyTheUnreserved() {
        #expect(PercentEncoding.encodeAllButUnreserved("a-b_c.d~e f/é") == "a-b_c.d~e%20f%2F%C3%A9")
    }

    @Test func trimming() {
        #expect(" \t a b \u{00A0}".trimmed() == "a b")
        #expect("\n a \r\n".trimmed() == "\n a \r\n")
        #expect("\n a \r\n".trimmed(newlines: true) == "a")
        #expect("   ".trimmed() == "")
    }
}
