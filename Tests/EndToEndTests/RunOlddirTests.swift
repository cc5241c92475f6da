import Foundation
import Testing

/// Issue 29: logrotate's `olddir` moves rotated files to another directory, where a run did
/// not look: each rotation lost the lines written since the last run, with only a gap.
/// `--rotated-dir` (config `rotated_dir`) names it, relative to the log's directory as
/// `olddir` is. Debian's real logrotate, under a stopped fake clock (as RunDateformatTests).
@Suite(.serialized) struct RunOlddirTests {
    /// A `dateformat` (nil: numbered), and the compression directives.
    static let shapes: [String?] = [nil, "-%Y%m%d", "-%Y-%m-%d-%s"]
    static let modes: [[String]] = [["compress", "delaycompress"], ["compress", "nodelaycompress"], ["nocompress"]]
    /// (shape, mode, the option as given: relative, absolute, or through the config).
    static let cases = shapes.indices.flatMap { s in
        modes.indices.flatMap { m in ["relative", "absolute", "config"].map { (s, m, $0) } }
    }

    @Test(.requires(.logrotate), .requires(.faketime), arguments: cases)
    func rotatedFilesInOlddirAreReadOnce(shape: Int, mode: Int, given: String) throws {
        guard let logrotate = ExternalTool.find(.logrotate, test: "rotatedFilesInOlddirAreReadOnce"),
            let faketime = ExternalTool.find(.faketime, test: "rotatedFilesInOlddirAreReadOnce")
        else { return }
        let h = try RunHarness()
        let old = h.dir.path("old")
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: false)
        var conf = "\(h.log) {\n    rotate 100\n    create\n    olddir old\n"
        if let format = Self.shapes[shape] { conf += "    dateext\n    dateformat \(format)\n" }
        conf += Self.modes[mode].map { "    \($0)\n" }.joined() + "}\n"
        let confPath = try h.dir.write("logrotate.conf", conf)
        let extra: [String]
        switch given {
        case "relative": extra = ["--rotated-dir", "old"]
        case "absolute": extra = ["--rotated-dir", old]
        default: extra = ["--config", try h.dir.write("uaaudit.json", "{\"rotated_dir\": \"old\"}\n")]
        }
        let label = "\(Self.shapes[shape] ?? "numbered"), \(Self.modes[mode]), \(given)"
        func rotate(on day: String) throws {
            try h.logrotate(logrotate, conf: confPath, on: "2026-12-\(day) 10:00:00", faketime: faketime)
        }
        func run() throws -> Int {
            let result = try h.run(now: "2026-11-29T11:10:00Z", extra: extra)
            #expect(result.status == 0, "\(label): \(result.stderr)")
            let gaps = try h.gaps()
            #expect(gaps.isEmpty, "\(label): \(gaps)")
            return try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int)
        }
        try h.append(30, hour: 10)
        #expect(try run() == 30, "\(label)")
        try h.append(20, hour: 10, minute: 20)
        try rotate(on: "07")
        try h.append(10, hour: 10, minute: 30)
        #expect(try run() == 60, "\(label)")
        try h.append(5, hour: 10, minute: 40)
        try rotate(on: "08")
        try h.append(5, hour: 10, minute: 50)
        #expect(try run() == 70, "\(label)")
        #expect(try run() == 70, "\(label)")
        // logrotate did move them: two rotated files in old/, none beside the log.
        #expect(try FileManager.default.contentsOfDirectory(atPath: old).count == 2, "\(label)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: h.dir.url.path).filter {
                $0.hasPrefix("access.log") && $0 != "access.log"
            } == [], "\(label)")
    }

    /// Without the option the rotated file is not found: a gap, and the lines written between
    /// the run and the rotation are not counted (what the option is for).
    @Test(.requires(.logrotate), .requires(.faketime)) func withoutTheOptionTheRotationIsAGap() throws {
        guard let logrotate = ExternalTool.find(.logrotate, test: "withoutTheOptionTheRotationIsAGap"),
            let faketime = ExternalTool.find(.faketime, test: "withoutTheOptionTheRotationIsAGap")
        else { return }
        let h = try RunHarness()
        try FileManager.default.createDirectory(atPath: h.dir.path("old"), withIntermediateDirectories: false)
        let confPath = try h.dir.write("logrotate.conf", "\(h.log) {\n    rotate 100\n    create\n    olddir old\n}\n")
        try h.append(30, hour: 10)
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        try h.append(20, hour: 10, minute: 20)
        let rotated = try ExternalTool.run(
            faketime, ["-f", "2026-12-07 10:00:00", logrotate, "-f", "-s", h.dir.path("logrotate.status"), confPath],
            environment: ["TZ": "UTC", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        try h.append(10, hour: 10, minute: 30)
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        #expect(try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int) == 40)
        #expect(try h.gaps().map { $0["file"] as? String } == [h.log])
        // Named, the directory is looked in from then on: a missing one holds nothing.
        #expect(try h.run(now: "2026-11-29T11:10:00Z", extra: ["--rotated-dir", "none-yet"]).status == 0)
    }
}
