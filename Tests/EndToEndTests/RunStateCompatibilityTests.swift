import Foundation
import Testing

/// A state committed by `uaaudit run` before issue 11 (Fixtures/state-v1, see its README)
/// loads in today's `run`, which goes on exactly where it stopped.
@Suite struct RunStateCompatibilityTests {
    static let fixtures = Tool.repoRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/state-v1")

    @Test func aStateFromBeforeKnownFilesAndCheckpointsGoesOnExactly() throws {
        let dir = try Scratch()
        for name in ["state.json", "access.log", "access.log.1"] {
            try FileManager.default.copyItem(
                at: Self.fixtures.appendingPathComponent(name), to: URL(fileURLWithPath: dir.path(name)))
        }
        // The copies have other inodes than the files the state saw: point it at them.
        var text = try String(contentsOfFile: dir.path("state.json"), encoding: .utf8)
        for (old, name) in [(16_237_054, "access.log"), (16_237_050, "access.log.1")] {
            let attributes = try FileManager.default.attributesOfItem(atPath: dir.path(name))
            let inode = try unwrap(attributes[.systemFileNumber] as? Int)
            text = text.replacingOccurrences(of: "\"inode\" : \(old)", with: "\"inode\" : \(inode)")
        }
        let device = try unwrap(
            try FileManager.default.attributesOfItem(atPath: dir.path("access.log"))[.systemNumber] as? Int)
        text = text.replacingOccurrences(of: "\"device\" : 65024", with: "\"device\" : \(device)")
        try text.write(toFile: dir.path("state.json"), atomically: false, encoding: .utf8)
        #expect(!text.contains("\"known\"") && !text.contains("checkpoints"))

        // The partial last line completed, and seven more lines; two more in the rotated file.
        let h = try RunHarness()
        var more = " HTTP/1.1\" 200 2 \"-\" \"-\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\"\n"
        for _ in 0..<7 { more += h.line("29/Nov/2026:10:40:00 +0000", "urlsession") + "\n" }
        try h.appendRaw(more, to: dir.path("access.log"))
        try h.appendRaw(
            h.line("29/Nov/2026:09:59:59 +0000", "inconsistent") + "\n"
                + h.line("29/Nov/2026:10:41:00 +0000", "inconsistent") + "\n", to: dir.path("access.log.1"))

        let result = try Tool.run(
            [
                "run", "-q", "--state", "state.json", "--out", "report.json", "--now", "2026-11-29T10:45:00Z", "--host",
                "test-host", "access.log",
            ], directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("report.json"))))
                as? [String: Any])
        let hours = try unwrap(report["hours"] as? [[String: Any]])
        let counts = try hours.map { (try unwrap($0["hour"] as? String), try unwrap($0["classes"] as? [String: Int])) }
        // Hour 09 had 45 urlsession and 25 inconsistent; hour 10 had 20 urlsession.
        #expect(counts.map(\.0) == ["2026-11-29T09:00:00+00:00", "2026-11-29T10:00:00+00:00"])
        #expect(counts[0].1.filter { $0.value > 0 } == ["urlsession": 45, "inconsistent": 26])
        #expect(counts[1].1.filter { $0.value > 0 } == ["urlsession": 27, "missing": 1, "inconsistent": 1])
        #expect(hours[0]["late"] as? Int == 1)
        #expect((report["gaps"] as? [Any])?.isEmpty ?? true)
        // Its state now keeps what issue 11 added, migrated to version 2 (issue 12's ledger by hour).
        let state = try String(contentsOfFile: dir.path("state.json"), encoding: .utf8)
        #expect(state.contains("\"known\"") && state.contains("\"checkpoints\"") && state.contains("\"version\" : 2"))
    }
}
