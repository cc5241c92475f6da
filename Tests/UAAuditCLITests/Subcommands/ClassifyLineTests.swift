import FoundationEssentials
import Testing

@testable import UAAuditCLI

/// `classify --json` writes its lines by hand (an encoder per line was 5–22× slower than the
/// text output): byte for byte what JSONEncoder with sorted keys and unescaped slashes writes.
@Suite struct ClassifyLineTests {
    static let lines: [ClassifyLine] = [
        ClassifyLine(
            ua: "MyApp/1.0 (iPhone; iOS 17_4)", class: "urlsession", rule: "urlsession", pattern: #"MyApp/\d"#),
        ClassifyLine(ua: "-", class: "missing", rule: nil, pattern: nil),
        ClassifyLine(ua: #"quote " back \ slash / tab"#, class: "other", rule: nil, pattern: nil),
        ClassifyLine(ua: "ctl \u{1}\u{1f}\n\r\t é 漢字 \u{7f}", class: "other", rule: nil, pattern: nil),
        {
            var line = ClassifyLine(ua: nil, class: "errors", rule: nil, pattern: "(a+)+$")
            line.error = "match limit"
            return line
        }(),
    ]

    @Test(arguments: lines) func writesWhatJSONEncoderWrites(_ line: ClassifyLine) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = Array(try encoder.encode(line)) + [0x0A]
        #expect(String(decoding: line.encoded(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}
