import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct LineReaderTests {
    func read(_ text: String, block: Int, maxLine: Int = 64, step: Int = 1 << 20) throws -> CollectingSink {
        var source = MemorySource(text, step: step)
        var sink = CollectingSink()
        try LineReader(blockSize: block, maxLineBytes: maxLine).read(&source, into: &sink)
        return sink
    }

    static let cases: [(text: String, lines: [String])] = [
        ("", []),
        ("a\n", ["a"]),
        ("a", ["a"]),
        ("a\nb", ["a", "b"]),
        ("\n", [""]),
        ("\n\n", ["", ""]),
        ("a\n\nb\n", ["a", "", "b"]),
        ("first line\nsecond line that is longer\nthird\n", ["first line", "second line that is longer", "third"]),
    ]

    @Test(arguments: cases)
    func splitsLinesWhateverTheBlockSize(text: String, lines: [String]) throws {
        for block in [16, 17, 1 << 20] {
            for step in [1, 3, 1 << 20] {
                let sink = try read(text, block: block, step: step)
                #expect(sink.lines.map { String(decoding: $0, as: UTF8.self) } == lines)
            }
        }
    }

    /// A sink that finds some lines' ends itself (the tokenizer's sweep does) gets the same lines
    /// and overlong lines, is never offered more than the limit and its `\n`, and is offered the
    /// bytes the reader holds.
    @Test func aSinkThatFindsLineEndsItselfGetsTheSameLines() throws {
        let long = String(repeating: "x", count: 5000)
        let exact = String(repeating: "z", count: 100)
        let texts =
            Self.cases.map(\.text) + [
                "short\n\(long)\nafter\n", "\(exact)\n\(exact)", "\(exact)\n\(exact)x\n\(exact)xy\nab\n",
                (0..<300).map { String(repeating: "w", count: $0 % 131) }.joined(separator: "\n"),
            ]
        for text in texts {
            for (block, step) in [(16, 1), (17, 3), (64, 7), (4096, 1 << 20), (1 << 20, 5)] {
                var source = MemorySource(text, step: step)
                var plain = CollectingSink()
                try LineReader(blockSize: block, maxLineBytes: 100).read(&source, into: &plain)
                source = MemorySource(text, step: step)
                var finding = FindingSink()
                try LineReader(blockSize: block, maxLineBytes: 100).read(&source, into: &finding)
                #expect(finding.collected.lines == plain.lines, "block \(block), step \(step)")
                #expect(finding.collected.overlong.map(\.length) == plain.overlong.map(\.length))
                #expect(finding.collected.overlong.map(\.prefix) == plain.overlong.map(\.prefix))
                #expect(finding.offered.allSatisfy { $0 >= 1 && $0 <= 101 })
            }
        }
        // Both ways were taken: the test would pass with a reader that never asked.
        var source = MemorySource(texts[11], step: 1 << 20)
        var finding = FindingSink()
        try LineReader(blockSize: 1 << 20, maxLineBytes: 100).read(&source, into: &finding)
        #expect(finding.found == 121)
        #expect(finding.collected.lines.count == 300)
    }

    /// Each read lands at an address that agrees with its bytes' file offset modulo 64, whatever
    /// that offset, the block size, the step and the lines (overlong ones included); and the
    /// lines are those read from offset 0.
    @Test func readsLandWhereTheirFileOffsetsAlign() throws {
        let long = String(repeating: "x", count: 5000)
        let texts = [
            "", "a", "a\nb\n", "short\n\(long)\nafter\n\(long)",
            (0..<300).map { String(repeating: "w", count: $0 % 131) }.joined(separator: "\n"),
        ]
        var reads = 0
        for text in texts {
            for (block, step) in [(16, 1), (17, 3), (64, 7), (100, 1 << 20), (4096, 1 << 20)] {
                var base = MemorySource(text, step: step)
                var expected = CollectingSink()
                try LineReader(blockSize: block, maxLineBytes: 100).read(&base, into: &expected)
                for offset in [1, 17, 63, 64, 4_096 + 40] as [Int64] {
                    var source = MemorySource(text, step: step)
                    source.fileOffset = offset
                    var sink = CollectingSink()
                    try LineReader(blockSize: block, maxLineBytes: 100).read(&source, into: &sink)
                    #expect(sink.lines == expected.lines, "offset \(offset), block \(block), step \(step)")
                    #expect(sink.overlong.map(\.length) == expected.overlong.map(\.length))
                    #expect(sink.overlong.map(\.prefix) == expected.overlong.map(\.prefix))
                    #expect(source.misaligned == 0, "offset \(offset), block \(block), step \(step)")
                    reads += source.position
                }
            }
        }
        #expect(reads > 0)
    }

    @Test func keepsNULAndInvalidUTF8BytesInsideLines() throws {
        var source = MemorySource([0x61, 0x00, 0xFF, 0x0A, 0xC3, 0x28, 0x0A])
        var sink = CollectingSink()
        try LineReader(blockSize: 16, maxLineBytes: 32).read(&source, into: &sink)
        #expect(sink.lines == [[0x61, 0x00, 0xFF], [0xC3, 0x28]])
    }

    @Test func overlongLineIsReportedOnceWithItsPrefixAndLength() throws {
        let long = String(repeating: "x", count: 5000)
        for step in [7, 1 << 20] {
            let sink = try read("short\n\(long)\nafter\n", block: 64, maxLine: 600, step: step)
            #expect(sink.lines.map { String(decoding: $0, as: UTF8.self) } == ["short", "<overlong>", "after"])
            #expect(sink.overlong.count == 1)
            #expect(sink.overlong.first?.length == 5000)
            #expect(sink.overlong.first?.prefix == Array(long.utf8.prefix(LineReader.overlongPrefixBytes)))
        }
    }

    @Test func overlongLastLineWithoutNewlineIsStillOneLine() throws {
        let long = String(repeating: "y", count: 1000)
        let sink = try read("a\n\(long)", block: 32, maxLine: 100)
        #expect(sink.lines.count == 2)
        #expect(sink.overlong.first?.length == 1000)
        // With a limit below the sample size, the sample is what was held when the line became too long.
        let prefix = try #require(sink.overlong.first?.prefix)
        #expect(prefix.count > 100 && prefix.count <= 132)
        #expect(prefix.allSatisfy { $0 == UInt8(ascii: "y") })
    }

    @Test func lineOfExactlyTheLimitIsNotOverlong() throws {
        let exact = String(repeating: "z", count: 100)
        let sink = try read("\(exact)\n\(exact)", block: 16, maxLine: 100, step: 5)
        #expect(sink.overlong.isEmpty)
        #expect(sink.lines == [Array(exact.utf8), Array(exact.utf8)])
    }

    /// A complete line longer than the limit but within one block (the buffer holds a whole
    /// block beyond the limit) is overlong too: the sink never sees more than the limit. Before
    /// this, such lines reached the UA decoders' scratch buffers, sized to the limit.
    @Test(arguments: [16, 64, 4096, 1 << 20])
    func completeLineOverTheLimitInsideOneBlockIsOverlong(block: Int) throws {
        let limit = 100
        let exact = String(repeating: "a", count: limit)
        let over = String(repeating: "b", count: limit + 1)
        let huge = String(repeating: "c", count: 5000)
        for step in [1 << 20, 7] {
            let sink = try read("\(exact)\n\(over)\n\(huge)\nend\n", block: block, maxLine: limit, step: step)
            #expect(
                sink.lines.map { String(decoding: $0, as: UTF8.self) } == [exact, "<overlong>", "<overlong>", "end"])
            #expect(sink.overlong.map(\.length) == [limit + 1, 5000])
            #expect(sink.lines.allSatisfy { $0.count <= limit })
        }
    }
}
