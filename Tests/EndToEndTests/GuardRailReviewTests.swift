import Foundation
import Testing

/// What a review of issue 15's guard rails found on the built binary: each case with its
/// exact exit status and message, and nothing written where a refusal happens.
@Suite struct GuardRailReviewTests {
    static func run(_ args: [String], in dir: Scratch, stdin: [UInt8]? = nil) throws -> Tool.Result {
        try Tool.run(args, stdin: stdin, directory: dir.url)
    }

    // MARK: 1. reports that do not overlap are merged

    @Test func twoEmptyFilesAreTwoReportsThatMerge() throws {
        let dir = try Scratch()
        try dir.write("E4.log", "")
        try dir.write("E5.log", "")
        let four = try Self.run(["scan", "--json", "E4.log"], in: dir)
        let five = try Self.run(["scan", "--json", "E5.log"], in: dir)
        #expect(four.status == 0)
        #expect(five.status == 0)
        try dir.write("E4.json", four.out)
        try dir.write("E5.json", five.out)
        let ids = [try GuardRailTests.reportID(four.stdout), try GuardRailTests.reportID(five.stdout)]
        #expect(ids[0] != nil)
        #expect(ids[0] != ids[1])
        let merged = try Self.run(["merge", "-q", "--out", "m.json", "E4.json", "E5.json"], in: dir)
        #expect(merged.status == 0)
        #expect(merged.stderr == "")
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("m.json"))))
                as? [String: Any])
        #expect(object["merged_from"] as? [String] == ids.compactMap { $0 })
    }

    @Test func twoStdinScansOfDifferentContentOfOneSizeHaveTwoIDs() throws {
        let dir = try Scratch()
        // Neither line matches the format: the reports count the same, the bytes differ.
        let a = try Self.run(["scan", "--json", "-"], in: dir, stdin: Array("aaaa\n".utf8))
        let b = try Self.run(["scan", "--json", "-"], in: dir, stdin: Array("bbbb\n".utf8))
        let again = try Self.run(["scan", "--json", "-"], in: dir, stdin: Array("aaaa\n".utf8))
        let id = try #require(try GuardRailTests.reportID(a.stdout))
        #expect(try GuardRailTests.reportID(b.stdout) != id)
        #expect(try GuardRailTests.reportID(again.stdout) == id)
    }

    @Test func quietHostsRunReportsMerge() throws {
        let dir = try Scratch()
        for host in ["web-1", "web-2"] {
            try FileManager.default.createDirectory(atPath: dir.path(host), withIntermediateDirectories: true)
            try dir.write("\(host)/access.log", "")
            let run = try Self.run(
                [
                    "run", "-q", "--host", host, "--state", "\(host)/s.json", "--out", "\(host)/report.json",
                    "--now", "2026-11-29T09:30:00Z", "\(host)/access.log",
                ], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merged = try Self.run(
            ["merge", "-q", "--out", "m.json", "web-1/report.json", "web-2/report.json"], in: dir)
        #expect(merged.status == 0)
        #expect(merged.stderr == "")
        #expect(FileManager.default.fileExists(atPath: dir.path("m.json")))
    }
}
