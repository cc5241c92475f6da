import Foundation
import Testing

/// Issue 29: `uaaudit run` over a log that Debian's real logrotate rotates with `dateext` and
/// the `dateformat`s that were not recognised (every line between the last run and the
/// rotation was lost), and with a number; each with `compress` + `delaycompress`, `compress`
/// alone and no compression. logrotate runs under `faketime -f` (a stopped clock: a clock
/// that ticks on from the given second gave `_100001` on a loaded machine) on two fixed days,
/// so the names (and `%s`) never depend on today's date or the load. Lines are written by the
/// test, not by nginx.
@Suite(.serialized) struct RunDateformatTests {
    /// A `dateformat` (nil: numbered) and the suffixes logrotate gives on 2026-12-07 and
    /// 2026-12-08 at 10:00:00 UTC.
    static let shapes: [(format: String?, first: String, second: String)] = [
        ("-%s", "-1796637600", "-1796724000"),
        ("-%Y-%m-%d", "-2026-12-07", "-2026-12-08"),
        ("-%Y-%m-%d-%s", "-2026-12-07-1796637600", "-2026-12-08-1796724000"),
        (".%Y-%m-%d_%H%M%S", ".2026-12-07_100000", ".2026-12-08_100000"),
        ("-%Y%m%d", "-20261207", "-20261208"),
        ("_%V.%d.%m.%Y", "_50.07.12.2026", "_50.08.12.2026"),
        ("%Y%m%d%H", "2026120710", "2026120810"),
        // Literal letters between the fields.
        ("-%Y%m%dT%H%M%S", "-20261207T100000", "-20261208T100000"),
        ("-%Y-W%V-%s", "-2026-W50-1796637600", "-2026-W50-1796724000"),
        (nil, ".2", ".1"),
    ]
    /// Each with the suffixes of the older and the newer rotated file after two rotations.
    static let modes: [(name: String, directives: [String], older: String, newer: String)] = [
        ("compress + delaycompress", ["compress", "delaycompress"], ".gz", ""),
        ("compress", ["compress", "nodelaycompress"], ".gz", ".gz"),
        ("no compression", ["nocompress"], "", ""),
    ]
    static let cases = shapes.indices.flatMap { s in modes.indices.map { (s, $0) } }

    @Test(.requires(.logrotate), .requires(.faketime), arguments: cases)
    func everyDateformatShapeIsReadOnce(shape: Int, mode: Int) throws {
        let (format, first, second) = Self.shapes[shape]
        let (modeName, directives, older, newer) = Self.modes[mode]
        let names = try rotateTwice(
            format: format, directives: directives, label: "\(format ?? "numbered"), \(modeName)",
            test: "everyDateformatShapeIsReadOnce")
        #expect(names == ["access.log" + first + older, "access.log" + second + newer], "\(format ?? "numbered")")
    }

    /// Issue 29 review: logrotate's `extension .log` names the rotated files of `access.log`
    /// `access.2.log` or `access-20261207.log` (the log's suffix kept last, a compressor's after
    /// it), which were not looked for (30/40/45 of 30/60/70); and `compressext` gives gzip
    /// files other suffixes, read by their magic number.
    static let renamed: [(directives: [String], older: String, newer: String)] = [
        (["extension .log", "compress", "delaycompress"], "access.2.log.gz", "access.1.log"),
        (["extension .log", "nocompress"], "access.2.log", "access.1.log"),
        (
            ["extension .log", "dateext", "dateformat -%Y%m%d", "compress"], "access-20261207.log.gz",
            "access-20261208.log.gz"
        ),
        (
            ["compress", "compressext .gzip", "dateext", "dateformat -%Y%m%d"], "access.log-20261207.gzip",
            "access.log-20261208.gzip"
        ),
        (["compress", "compressext .z"], "access.log.2.z", "access.log.1.z"),
    ]

    @Test(.requires(.logrotate), .requires(.faketime), arguments: renamed.indices)
    func extensionAndCompressextNamesAreReadOnce(index: Int) throws {
        let (directives, older, newer) = Self.renamed[index]
        let names = try rotateTwice(
            format: nil, directives: directives, label: "\(directives)", test: "extensionAndCompressextNamesAreReadOnce"
        )
        #expect(names == [older, newer], "\(directives)")
    }

    /// Another compressor's file (bzip2 without `delaycompress`) is never read, but is named in
    /// the gap of the lines it holds (the gap said only that the rotated file was not found).
    @Test(.requires(.logrotate), .requires(.faketime))
    func anotherCompressorsFileIsNamedInTheGap() throws {
        let test = "anotherCompressorsFileIsNamedInTheGap"
        guard let logrotate = ExternalTool.find(.logrotate, test: test),
            let faketime = ExternalTool.find(.faketime, test: test)
        else { return }
        let h = try RunHarness()
        let conf =
            "\(h.log) {\n    rotate 100\n    create\n    compress\n    compresscmd /bin/bzip2\n    compressext .bz2\n}\n"
        let confPath = try h.dir.write("logrotate.conf", conf)
        try h.append(30, hour: 10)
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        try h.append(20, hour: 10, minute: 20)
        try h.logrotate(logrotate, conf: confPath, on: "2026-12-07 10:00:00", faketime: faketime)
        try h.append(10, hour: 10, minute: 30)
        #expect(try h.run(now: "2026-11-29T11:10:00Z").status == 0)
        #expect(try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int) == 40)
        let reasons = try h.gaps().compactMap { $0["reason"] as? String }
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("\(h.log).1.bz2 (bzip2) may hold them") == true, "\(reasons)")
    }

    /// 30 lines, a run, 20 more, a rotation, 10 more, a run (60), 5 more, a rotation, 5 more, a
    /// run (70) and another (70), each with no gap; the rotated files' names, for the caller.
    func rotateTwice(format: String?, directives: [String], label: String, test: String) throws -> Set<String> {
        guard let logrotate = ExternalTool.find(.logrotate, test: test),
            let faketime = ExternalTool.find(.faketime, test: test)
        else { return [] }
        let h = try RunHarness()
        var conf = "\(h.log) {\n    rotate 100\n    create\n"
        if let format { conf += "    dateext\n    dateformat \(format)\n" }
        conf += directives.map { "    \($0)\n" }.joined() + "}\n"
        let confPath = try h.dir.write("logrotate.conf", conf)
        func rotate(on day: String) throws {
            try h.logrotate(logrotate, conf: confPath, on: "2026-12-\(day) 10:00:00", faketime: faketime)
        }
        func run() throws -> Int {
            let result = try h.run(now: "2026-11-29T11:10:00Z")
            #expect(result.status == 0, "\(result.stderr)")
            let gaps = try h.gaps()
            #expect(gaps.isEmpty, "\(label): \(gaps)")
            return try unwrap((try h.reportJSON()["totals"] as? [String: Any])?["requests"] as? Int)
        }
        try h.append(30, hour: 10)
        #expect(try run() == 30)
        try h.append(20, hour: 10, minute: 20)
        try rotate(on: "07")
        try h.append(10, hour: 10, minute: 30)
        #expect(try run() == 60, "\(label)")
        try h.append(5, hour: 10, minute: 40)
        try rotate(on: "08")
        try h.append(5, hour: 10, minute: 50)
        #expect(try run() == 70, "\(label)")
        #expect(try run() == 70)
        return Set(
            try FileManager.default.contentsOfDirectory(atPath: h.dir.url.path).filter {
                $0.hasPrefix("access") && $0 != "access.log" && !$0.hasSuffix(".json")
            })
    }
}
