import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct DarwinTableTests {
    @Test(arguments: [
        ("18.0.0", "12.0"), ("18.2.0", "12.1"), ("18.7.0", "12.4"), ("19.0.0", "13.0"), ("19.3.0", "13.3"),
        ("20.1.0", "14.2"), ("20.6.0", "14.7"), ("21.6.0", "15.6"), ("22.6.0", "16.6"), ("23.4.0", "17.4"),
        ("23.4", "17.4"), ("24.0.0", "18.0"), ("24.1.0", "18.1"), ("24.6.0", "18.6"), ("25.0.0", "26.0"),
        ("25.1.0", "26.1"), ("25.2", "26.2"),
    ])
    func knownDarwinVersionsGiveTheirIOS(darwin: String, ios: String) {
        #expect(DarwinTable.ios(darwin: darwin) == ios)
    }

    @Test(arguments: [
        "17.7.0", "17.0.0", "18.1.0", "26.0.0", "27.0.0", "abc", "", "23", "23.", ".4", "23.4.0.0", "23.x.0",
        "23.4.0 ", " 23.4.0", "23.4.0a", "0023.4.0", "23.04.0", "2\u{0}3.4", "٢٣.٤.٠",
    ])
    func outsideTheTableOrMalformedIsNil(darwin: String) {
        #expect(DarwinTable.ios(darwin: darwin) == nil)
    }

    @Test func entriesAreInDarwinOrderOncePerVersionAndReachIOS12To26() {
        let darwins = DarwinTable.entries.map(\.darwin)
        #expect(Set(darwins).count == darwins.count)
        let keys = darwins.map { $0.split(separator: ".").compactMap { Int($0) } }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(DarwinTable.entries.first?.ios == "12.0" && DarwinTable.entries.last?.ios == "26.6")
        #expect(DarwinTable.entries.count == 53)
        for entry in DarwinTable.entries { #expect(DarwinTable.ios(darwin: entry.darwin + ".0") == entry.ios) }
    }

    // MARK: Against the source

    /// oss.yml's pairs, written by `scripts/real-ua-corpus.py` beside the real-UA corpus; skipped
    /// loudly where absent, failing where CI requires it (as `RealCorpusTests`).
    static let path = RulesFileTests.repoRoot.appendingPathComponent(".build/corpus/darwin-ios.tsv").path
    static let present: Bool = {
        let found = FileManager.default.fileExists(atPath: path)
        if !found {
            print(
                "\n*** THE DARWIN TO iOS SOURCE IS ABSENT (\(path)): DarwinTableTests' source check "
                    + (RealCorpusTests.required ? "FAILS (UAAUDIT_REQUIRE_SERVERS=1)" : "is SKIPPED")
                    + ". Run scripts/real-ua-corpus.py to write it. ***\n")
        }
        return found
    }()

    static func sourcePairs() throws -> [(darwin: String, ios: String)] {
        guard present else {
            Issue.record(
                "UAAUDIT_REQUIRE_SERVERS=1 but the Darwin to iOS source \(path) is absent: run scripts/real-ua-corpus.py"
            )
            return []
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count == 2 ? (String(fields[0]), String(fields[1])) : nil
        }
    }

    /// "13.3.1" → "13.3": the table keeps major.minor.
    static func majorMinor(_ version: String) -> String {
        version.split(separator: ".", omittingEmptySubsequences: false).prefix(2).joined(separator: ".")
    }

    @Test(.enabled(if: present || RealCorpusTests.required, "the Darwin to iOS source is absent"))
    func everyEntryIsTheSourcesAndTheSourceIsCoveredForDarwin18To24() throws {
        let source = try Self.sourcePairs()
        guard !source.isEmpty else { return }
        let stated = Dictionary(source.map { ($0.darwin, Self.majorMinor($0.ios)) }, uniquingKeysWith: { a, _ in a })
        #expect(stated.count == source.count, "the source states a Darwin version twice")
        // Every pair the source states for Darwin 18 to 24 is ours, exactly.
        var checked = 0
        for (darwin, ios) in source {
            guard let major = Int(darwin.prefix { $0 != "." }), (18...24).contains(major) else { continue }
            #expect(DarwinTable.ios(darwin: darwin) == Self.majorMinor(ios), "Darwin/\(darwin): the source says \(ios)")
            checked += 1
        }
        #expect(checked == 46)
        // And the source states every pair of ours, with the same iOS version (Darwin 25 included).
        for entry in DarwinTable.entries {
            #expect(stated[entry.darwin] == entry.ios, "Darwin/\(entry.darwin) is \(entry.ios) here")
        }
    }
}
