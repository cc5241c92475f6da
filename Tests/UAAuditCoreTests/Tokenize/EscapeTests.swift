import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A small seeded generator, so random cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct EscapeTests {
    @Test(
        arguments: [
            ([0x22], #"\x22"#), ([0x5C], #"\x5C"#), ([0x00], #"\x00"#), ([0x1F], #"\x1F"#), ([0x09], #"\x09"#),
            ([0x20], " "), ([0x21], "!"), ([0x7E], "~"), ([0x7F], #"\x7F"#), ([0x80], #"\x80"#), ([0xAB], #"\xAB"#),
            ([0xFF], #"\xFF"#), (Array("é".utf8), #"\xC3\xA9"#), (Array("a\"b\\c d".utf8), #"a\x22b\x5Cc d"#),
            ([], ""),
        ] as [([UInt8], String)])
    func escapesDefault(bytes: [UInt8], logged: String) {
        #expect(Escape.nginx(bytes, mode: .default) == Array(logged.utf8))
    }

    @Test(
        arguments: [
            ([0x22], #"\""#), ([0x5C], #"\\"#), ([0x0A], #"\n"#), ([0x0D], #"\r"#), ([0x09], #"\t"#),
            ([0x08], #"\b"#), ([0x0C], #"\f"#), ([0x00], #"\u0000"#), ([0x01], #"\u0001"#), ([0x1B], #"\u001b"#),
            ([0x1F], #"\u001f"#), ([0x20], " "), ([0x2F], "/"), ([0x7F], "\u{7F}"), (Array("é".utf8), "é"),
            (Array("a\"b\\c".utf8), #"a\"b\\c"#), ([], ""),
        ] as [([UInt8], String)])
    func escapesJSON(bytes: [UInt8], logged: String) {
        #expect(Escape.nginx(bytes, mode: .json) == Array(logged.utf8))
    }

    @Test func jsonWritesHighBytesRaw() {
        #expect(Escape.nginx([0x55, 0xFF, 0x80, 0xC3], mode: .json) == [0x55, 0xFF, 0x80, 0xC3])
    }

    @Test func noneModeIsIdentity() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(Escape.nginx(bytes, mode: .none) == bytes)
    }

    @Test func everySingleByteDefault() {
        for b in (0...255).map({ UInt8($0) }) {
            let printable = b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C
            let expected = printable ? [b] : Array(("\\x" + hex(b, uppercase: true)).utf8)
            let logged = Escape.nginx([b], mode: .default)
            #expect(logged == expected, "byte \(b)")
            #expect(Unescape.decode(logged, mode: .default) == [b], "byte \(b)")
        }
    }

    @Test func everySingleByteJSON() {
        let named: [UInt8: String] = [
            0x22: #"\""#, 0x5C: #"\\"#, 0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#, 0x08: #"\b"#, 0x0C: #"\f"#,
        ]
        for b in (0...255).map({ UInt8($0) }) {
            let expected: [UInt8]
            if let text = named[b] {
                expected = Array(text.utf8)
            } else if b < 0x20 {
                expected = Array(("\\u00" + hex(b, uppercase: false)).utf8)
            } else {
                expected = [b]
            }
            let logged = Escape.nginx([b], mode: .json)
            #expect(logged == expected, "byte \(b)")
            #expect(Unescape.decode(logged, mode: .json) == [b], "byte \(b)")
        }
    }

    @Test(arguments: EscapeMode.allCases)
    func decodeOfEscapeIsIdentityOnRandomBytes(_ mode: EscapeMode) {
        var rng = SplitMix64(state: 0x5EED)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...48, using: &rng)
            // Mostly the bytes that matter: quotes, backslashes, 'x', 'u', hex digits, controls, high bytes.
            let alphabet: [UInt8] = [0x22, 0x5C, 0x78, 0x75, 0x30, 0x41, 0x44, 0x64, 0x0A, 0x00, 0x7F, 0x80, 0xFF]
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            #expect(Unescape.decode(Escape.nginx(bytes, mode: mode), mode: mode) == bytes, "\(bytes)")
        }
    }

    @Test(
        arguments: [
            (EscapeMode.default, #"Mozilla/5.0 \x22quoted\x22 back\x5Cslash"#),
            (.default, #"okhttp/4.12.0\x09tab\x0Anl\x7Fdel \xE4\xB8\xAD\xE6\x96\x87\x00"#),
            (.default, #"\x16\x03\x01\x02\x00\x01\x00\x01\xFC\x03\x03"#),
            (.default, "-"),
            (.default, ""),
            (.default, "u\\x5Cx41"),
            (.json, #"Mozilla/5.0 \"quoted\" back\\slash"#),
            (.json, #"a\u0001b\nc\td\u001f\b\f\r é"#),
            (.json, "raw DEL \u{7F} and é"),
            (.json, #"agent\\"#),
            (.json, ""),
            (.none, "anything \\x22 \" goes"),
        ] as [(EscapeMode, String)])
    func escapeOfDecodeGivesBackCanonicalLogText(mode: EscapeMode, logged: String) {
        let bytes = Array(logged.utf8)
        #expect(Escape.nginx(Unescape.decode(bytes, mode: mode), mode: mode) == bytes)
    }
}
