import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct UnescapeTests {
    struct DecodeCase: Sendable, CustomTestStringConvertible {
        let logged: [UInt8]
        let decoded: [UInt8]
        init(_ logged: String, _ decoded: [UInt8]) {
            self.logged = Array(logged.utf8)
            self.decoded = decoded
        }
        init(_ logged: String, _ decoded: String) { self.init(logged, Array(decoded.utf8)) }
        var testDescription: String { String(decoding: logged, as: UTF8.self) }
    }

    @Test(arguments: [
        DecodeCase("", ""),
        DecodeCase("Mozilla/5.0 (X11)", "Mozilla/5.0 (X11)"),
        DecodeCase(#"\x22"#, #"""#),
        DecodeCase(#"\x5C"#, #"\"#),
        DecodeCase(#"\x5c"#, #"\"#),
        DecodeCase(#"a\x09b\x0Ac\x7F"#, "a\tb\nc\u{7F}"),
        DecodeCase(#"\x00"#, [0x00]),
        DecodeCase(#"\xFF\xfe\x80"#, [0xFF, 0xFE, 0x80]),
        DecodeCase(#"\xE4\xB8\xAD\xE6\x96\x87"#, "中文"),
        DecodeCase(#"\x16\x03\x01\x02\x00"#, [0x16, 0x03, 0x01, 0x02, 0x00]),
        // Partial or invalid escapes stand for themselves.
        DecodeCase(#"\"#, #"\"#),
        DecodeCase(#"\x"#, #"\x"#),
        DecodeCase(#"\x4"#, #"\x4"#),
        DecodeCase(#"ab\x4"#, #"ab\x4"#),
        DecodeCase(#"\x4G"#, #"\x4G"#),
        DecodeCase(#"\xG4"#, #"\xG4"#),
        DecodeCase(#"\X41"#, #"\X41"#),
        DecodeCase(#"\y41"#, #"\y41"#),
        DecodeCase(#"\\x41"#, #"\A"#),
        DecodeCase(#"\x5C\x41"#, #"\A"#),
        DecodeCase(#"\"a\n"#, #"\"a\n"#),
        DecodeCase(#"\u0041"#, #"\u0041"#),
    ])
    func decodesDefault(_ c: DecodeCase) {
        #expect(Unescape.decode(c.logged, mode: .default) == c.decoded)
    }

    @Test(arguments: [
        DecodeCase("", ""),
        DecodeCase("plain é 中", "plain é 中"),
        DecodeCase(#"\""#, #"""#),
        DecodeCase(#"\\"#, #"\"#),
        DecodeCase(#"\/"#, "/"),
        DecodeCase(#"\n\r\t\b\f"#, "\n\r\t\u{8}\u{C}"),
        DecodeCase(#"\u0000"#, [0x00]),
        DecodeCase(#"\u001f\u001F\u007f"#, [0x1F, 0x1F, 0x7F]),
        DecodeCase(#"\u0041"#, "A"),
        DecodeCase(#"\u00e9"#, "é"),
        DecodeCase(#"\u20AC"#, "€"),
        DecodeCase(#"\ud83d\ude00"#, "😀"),
        DecodeCase(#"\uD83D\uDE00!"#, "😀!"),
        DecodeCase(#"a\\\"b"#, #"a\"b"#),
        DecodeCase(#"agent\\"#, #"agent\"#),
        // Raw bytes, whatever they are, stay as they are.
        DecodeCase("\u{7F}", [0x7F]),
        // Partial or invalid escapes stand for themselves.
        DecodeCase(#"\"#, #"\"#),
        DecodeCase(#"abc\"#, #"abc\"#),
        DecodeCase(#"\q"#, #"\q"#),
        DecodeCase(#"\x41"#, #"\x41"#),
        DecodeCase(#"\u"#, #"\u"#),
        DecodeCase(#"\u12"#, #"\u12"#),
        DecodeCase(#"\u12G4"#, #"\u12G4"#),
        DecodeCase(#"\U0041"#, #"\U0041"#),
        // Lone or broken surrogates: the escape text is kept.
        DecodeCase(#"\ud83d"#, #"\ud83d"#),
        DecodeCase(#"\ude00"#, #"\ude00"#),
        DecodeCase(#"\ude00\ud83d"#, #"\ude00\ud83d"#),
        DecodeCase(#"\ud83dx"#, #"\ud83dx"#),
        DecodeCase(#"\ud83d\u0041"#, #"\ud83dA"#),
        DecodeCase(#"\ud83d\ud83d\ude00"#, #"\ud83d😀"#),
        DecodeCase(#"\ud83d\ude0"#, #"\ud83d\ude0"#),
    ])
    func decodesJSON(_ c: DecodeCase) {
        #expect(Unescape.decode(c.logged, mode: .json) == c.decoded)
    }

    @Test(arguments: [#"\x22 a\\b \u0041"#, "", "é\u{0}\u{7F}"])
    func noneModeKeepsEverything(_ text: String) {
        #expect(Unescape.decode(Array(text.utf8), mode: .none) == Array(text.utf8))
    }

    @Test func everyHexEscapeInBothCases() {
        for b in 0...255 {
            let upper = Array(("\\x" + hex(UInt8(b), uppercase: true)).utf8)
            let lower = Array(("\\x" + hex(UInt8(b), uppercase: false)).utf8)
            #expect(Unescape.decode(upper, mode: .default) == [UInt8(b)])
            #expect(Unescape.decode(lower, mode: .default) == [UInt8(b)])
            #expect(
                Unescape.decode(Array(("\\u00" + hex(UInt8(b), uppercase: false)).utf8), mode: .json)
                    == Array(String(Unicode.Scalar(UInt8(b))).utf8))
        }
    }

    @Test(arguments: EscapeMode.allCases)
    func decodesIntoABufferOfTheSourceSize(_ mode: EscapeMode) {
        // The buffer form writes at most source.count bytes and returns the decoded length.
        let source = Array(#"ab\x22\u00e9\"\\ \ud83d\ude00 é"#.utf8)
        var destination = [UInt8](repeating: 0xAA, count: source.count + 1)
        let n = source.withUnsafeBytes { src in
            destination.withUnsafeMutableBufferPointer { Unescape.decode(src, mode: mode, into: $0) }
        }
        #expect(n <= source.count)
        #expect(Array(destination.prefix(n)) == Unescape.decode(source, mode: mode))
        #expect(destination[source.count] == 0xAA)
    }

    /// A destination smaller than the decoded text is filled and never passed: the decoders stop
    /// at its capacity (a 4-byte code point that would not fit whole is not written).
    @Test(arguments: EscapeMode.allCases, [0, 1, 3, 5, 8])
    func stopsAtTheDestinationsCapacity(_ mode: EscapeMode, capacity: Int) {
        let source = Array(#"ab\x22\ud83d\ude00cdefghij"#.utf8)
        let full = Unescape.decode(source, mode: mode)
        var destination = [UInt8](repeating: 0xAA, count: capacity + 4)
        let n = source.withUnsafeBytes { src in
            destination.withUnsafeMutableBufferPointer {
                Unescape.decode(src, mode: mode, into: UnsafeMutableBufferPointer(rebasing: $0[..<capacity]))
            }
        }
        #expect(n <= capacity)
        #expect(Array(destination.prefix(n)) == Array(full.prefix(n)))
        #expect(destination[capacity...].allSatisfy { $0 == 0xAA })
        // Only a whole sequence that would not fit stops it short of the capacity.
        #expect(n >= min(capacity, full.count) - 3)
    }
}

/// Two hex digits of `b`.
func hex(_ b: UInt8, uppercase: Bool) -> String {
    let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}
