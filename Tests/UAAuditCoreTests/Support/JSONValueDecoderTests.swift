import FoundationEssentials
import Testing

@testable import UAAuditInput

/// Values are decoded from the one parse as `JSONDecoder` decodes them from the bytes.
@Suite struct JSONValueDecoderTests {
    struct Sample: Codable, Equatable {
        struct Inner: Codable, Equatable {
            var name: String
            var flag: Bool?
        }
        var count: Int64
        var small: UInt8
        var share: Double
        var text: String
        var list: [Inner]
        var map: [String: Int]
        var absent: String?
        var null: Int?
        var exact: Decimal
    }

    static let text = """
        {"count": 9007199254740993, "small": 255, "share": 0.001, "text": "a\\u00e9\\n", "ignored": [1, {}],
         "list": [{"name": "x", "flag": true}, {"name": "y"}], "map": {"a": -1, "b": 2}, "null": null,
         "exact": 0.00001}
        """

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let bytes = Array(Self.text.utf8)
        let mine = try JSONValueDecoder.decode(Sample.self, from: try JSONValue.parse(bytes))
        let theirs = try JSONDecoder().decode(Sample.self, from: Data(bytes))
        #expect(mine == theirs)
        #expect(mine.count == 9_007_199_254_740_993)  // exact, past a Double's integers
        #expect(mine.exact.description == "0.00001")
        #expect(mine.list == [.init(name: "x", flag: true), .init(name: "y", flag: nil)])
        #expect(mine.absent == nil && mine.null == nil)
    }

    struct Whole: Decodable { var n: Int64 }
    struct Byte: Decodable { var n: UInt8 }

    /// A whole number written with a fraction or an exponent is taken; any other is refused
    /// with the number as written, where it is.
    @Test(arguments: [
        (#"{"n": 12.0}"#, "12"), (#"{"n": 1.2e1}"#, "12"), (#"{"n": -0}"#, "0"),
        (#"{"n": 1.5}"#, "1.5 is not a whole number at .n"),
        (
            #"{"n": 9223372036854775808}"#,
            "9223372036854775808 is out of the range of a whole number here (-9223372036854775808 to 9223372036854775807) at .n"
        ),
        (
            #"{"n": 1e30}"#,
            "1e30 is out of the range of a whole number here (-9223372036854775808 to 9223372036854775807) at .n"
        ),
        (#"{"n": "12"}"#, "wrong type at .n: n must be a whole number (not a string)"),
        (#"{"n": null}"#, "wrong type at .n: n must be a whole number (not null)"),
        (#"{}"#, "missing key 'n' at the top level"),
    ])
    func wholeNumbers(text: String, outcome: String) throws {
        let value = try JSONValue.parse(Array(text.utf8))
        do {
            #expect(String(try JSONValueDecoder.decode(Whole.self, from: value).n) == outcome)
        } catch {
            #expect(JSONErrors.describe(error) == outcome)
        }
    }

    @Test func aNumberPastItsTypeIsNamed() throws {
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder.decode(Byte.self, from: try JSONValue.parse(Array(#"{"n": 256}"#.utf8)))
        }
        do {
            _ = try JSONValueDecoder.decode(
                [Byte].self, from: try JSONValue.parse(Array(#"[{"n": 1}, {"n": -1}]"#.utf8)))
        } catch {
            #expect(JSONErrors.describe(error) == "-1 is out of the range of a whole number here (0 to 255) at [1].n")
        }
    }
}
