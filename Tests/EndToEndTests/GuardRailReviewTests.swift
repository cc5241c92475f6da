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

extension GuardRailReviewTests {
    // MARK: 2. an output that is a link writes where it leads, never over the link

    static func scratchWithLinks() throws -> Scratch {
        let dir = try Scratch()
        try dir.write("a.log", CommandLineTests.alertLog())
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.path("stdout"), withDestinationPath: "/proc/self/fd/1")
        try dir.write("real.json", "old\n")
        try fm.createSymbolicLink(atPath: dir.path("link.json"), withDestinationPath: "real.json")
        try fm.createSymbolicLink(atPath: dir.path("dangling.json"), withDestinationPath: "new.json")
        try fm.createDirectory(atPath: dir.path("dir.json"), withIntermediateDirectories: false)
        #expect(mkfifo(dir.path("fifo.json"), 0o644) == 0)
        return dir
    }

    static func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    @Test func anOutputLinkToStdoutPrintsThereAndStaysALink() throws {
        let dir = try Self.scratchWithLinks()
        let json = try Self.run(["scan", "--json", "a.log"], in: dir)
        for flag in ["--out", "--html"] {
            let result = try Self.run(["scan", "-q", flag, "stdout", "a.log"], in: dir)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            if flag == "--out" {
                #expect(result.out == json.out)
            } else {
                #expect(result.out.hasPrefix("<!DOCTYPE html>"))
            }
            #expect(Self.isLink(dir.path("stdout")))
        }
        let html = try Self.run(["scan", "--html", "-", "a.log"], in: dir)
        #expect(html.status == 0)
        #expect(html.out.hasPrefix("<!DOCTYPE html>"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("-")))
        let run = try Self.run(["run", "-q", "--state", "s.json", "--out", "stdout", "a.log"], in: dir)
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("{"))
        #expect(Self.isLink(dir.path("stdout")))
    }

    @Test func anOutputLinkToAFileReplacesTheFileNotTheLink() throws {
        let dir = try Self.scratchWithLinks()
        let result = try Self.run(["scan", "-q", "--out", "link.json", "--html", "dangling.json", "a.log"], in: dir)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(Self.isLink(dir.path("link.json")))
        #expect(Self.isLink(dir.path("dangling.json")))
        #expect(try String(contentsOfFile: dir.path("real.json"), encoding: .utf8).hasPrefix("{"))
        #expect(try String(contentsOfFile: dir.path("new.json"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    @Test(arguments: [
        (
            ["scan", "-q", "--out", "dir.json", "a.log"],
            "--out dir.json is a directory, not a regular file; give a file path, or - for stdout (nothing was written)"
        ),
        (
            ["scan", "-q", "--html", "fifo.json", "a.log"],
            "--html fifo.json is a FIFO, not a regular file; give a file path, or - for stdout (nothing was written)"
        ),
        (
            ["merge", "--out", "fifo.json", "r.json"],
            "--out fifo.json is a FIFO, not a regular file; give a file path, or - for stdout (nothing was written)"
        ),
        (
            ["scan", "--json", "--html", "-", "a.log"],
            "--json and --html - would both write to stdout; give all but one a file path (nothing was written)"
        ),
        (
            ["scan", "--out", "stdout", "--html", "-", "a.log"],
            "--out stdout and --html - would both write to stdout; give all but one a file path (nothing was written)"
        ),
        (
            ["run", "--state", "s.json", "--json", "--out", "-", "a.log"],
            "--json and --out - would both write to stdout; give all but one a file path (nothing was written)"
        ),
        (
            ["scan", "-q", "--out", "real.json", "--html", "link.json", "a.log"],
            "--out real.json and --html link.json are the same file; give each its own path (nothing was written)"
        ),
    ])
    func anOutputThatIsNoRegularFileOrASecondStdoutIsRefused(args: [String], message: String) throws {
        let dir = try Self.scratchWithLinks()
        try dir.write("r.json", "{}")
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        let result = try Self.run(args, in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "uaaudit: " + message + "\n")
        #expect(result.out.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == listing)
        #expect(try String(contentsOfFile: dir.path("real.json"), encoding: .utf8) == "old\n")
    }

    @Test func outDevStdinIsRefusedAndLeftAlone() throws {
        let dir = try Self.scratchWithLinks()
        try FileManager.default.createSymbolicLink(atPath: dir.path("in"), withDestinationPath: "/proc/self/fd/0")
        let result = try Self.run(["scan", "-q", "--out", "in", "a.log"], in: dir, stdin: [])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("uaaudit: --out in is a"))
        #expect(
            result.stderr.hasSuffix(", not a regular file; give a file path, or - for stdout (nothing was written)\n"))
        #expect(Self.isLink(dir.path("in")))
    }
}

extension GuardRailReviewTests {
    // MARK: 3. config values obey the flags' ranges

    @Test(arguments: [
        (#""top": -1"#, "top takes a whole number from 0 to 10000, not '-1'"),
        (#""top": 100000"#, "top takes a whole number from 0 to 10000, not '100000'"),
        (#""history_hours": -3"#, "history_hours takes a whole number from 1 to 8784, not '-3'"),
        (#""history_hours": 1.5"#, "history_hours takes a whole number from 1 to 8784, not '1.5'"),
        // The value as written in the file (no longer as Foundation's NSNumber prints it, 1e+99).
        (#""history_hours": 1e99"#, "history_hours takes a whole number from 1 to 8784, not '1e99'"),
        (#""min_requests": -3"#, "min_requests takes a whole number from 0 to 2147483647, not '-3'"),
        (#""lock_wait_seconds": -5"#, "lock_wait_seconds takes seconds from 0 to 3600, not '-5'"),
        (#""grace_seconds": 86401"#, "grace_seconds takes a whole number from 0 to 86400, not '86401'"),
        (
            #""insight": {"baseline_hours": 2.5}"#,
            "insight.baseline_hours takes a whole number from 0 to 8784, not '2.5'"
        ),
    ])
    func aConfigValueOutOfItsFlagsRangeIsAUsageError(entry: String, message: String) throws {
        let dir = try Scratch()
        try dir.write("a.log", CommandLineTests.alertLog())
        try dir.write("c.json", #"{"version": 1, "logs": ["a.log"], "state": "s.json", "# + entry + "}")
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        let result = try Self.run(["run", "-q", "-c", "c.json", "--now", "2026-11-29T09:30:00Z"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "uaaudit: config c.json: " + message + "\n")
        #expect(result.out.isEmpty)
        // No state, no lock file left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == listing)
    }
}

extension GuardRailReviewTests {
    // MARK: 4. no input read, no report written

    @Test(arguments: [
        ["scan", "-q", "--out", "keep.json", "--html", "keep.html", "--prom", "keep.prom", "nothere.log"],
        ["scan", "--json", "nothere.log"],
        ["scan", "--out", "-", "nothere.log"],
        ["scan", "-q", "--out", "keep.json", "nothere.log", "gone.log"],
    ])
    func whenNoInputCouldBeReadNothingIsWrittenOrPrinted(args: [String]) throws {
        let dir = try Scratch()
        for name in ["keep.json", "keep.html", "keep.prom"] { try dir.write(name, "old\n") }
        let result = try Self.run(args, in: dir)
        #expect(result.status == 3)
        #expect(result.out.isEmpty)
        let expected =
            ["nothere.log", "gone.log"].filter(args.contains).map {
                "uaaudit: \($0): cannot open: No such file or directory\n"
            }.joined()
        #expect(result.stderr == expected)
        for name in ["keep.json", "keep.html", "keep.prom"] {
            #expect(try String(contentsOfFile: dir.path(name), encoding: .utf8) == "old\n", "\(name)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == [
                "keep.html", "keep.json", "keep.prom",
            ])
    }

    @Test func anInputThatCouldBeReadBesideOneThatCouldNotStillGivesItsReport() throws {
        let dir = try Scratch()
        try dir.write("a.log", CommandLineTests.alertLog())
        let result = try Self.run(["scan", "-q", "--out", "r.json", "a.log", "nothere.log"], in: dir)
        #expect(result.status == 3)
        #expect(result.stderr == "uaaudit: nothere.log: cannot open: No such file or directory\n")
        #expect(try String(contentsOfFile: dir.path("r.json"), encoding: .utf8).hasPrefix("{"))
    }
}

extension GuardRailReviewTests {
    // MARK: 5. secret, URL and included files are inputs too; run's outputs are no rotated log

    static let ua2 =
        #"log_format ua2 '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"';"#

    @Test(arguments: [
        (
            [
                "scan", "-q", "--webhook", "http://127.0.0.1:9/x", "--webhook-kind", "dingtalk",
                "--webhook-secret-file", "secret.txt", "--out", "secret.txt", "access.log",
            ],
            "--out secret.txt would overwrite the webhook secret file secret.txt; choose another path (nothing was written)"
        ),
        (
            ["run", "-q", "-c", "c.json", "--out", "url.txt"],
            "--out url.txt would overwrite the webhook URL file url.txt; choose another path (nothing was written)"
        ),
        (
            ["run", "-q", "-c", "c.json", "--html", "secret.txt"],
            "--html secret.txt would overwrite the webhook secret file secret.txt; choose another path (nothing was written)"
        ),
        (
            ["scan", "-q", "--nginx-conf", "nginx.conf", "--format", "ua2", "--html", "conf.d/f.conf", "access.log"],
            "--html conf.d/f.conf would overwrite the nginx config's include conf.d/f.conf; choose another path (nothing was written)"
        ),
        (
            [
                "run", "-q", "--state", "s.json", "--nginx-conf", "nginx.conf", "--format", "ua2", "--out",
                "conf.d/f.conf", "access.log",
            ],
            "--out conf.d/f.conf would overwrite the nginx config's include conf.d/f.conf; choose another path (nothing was written)"
        ),
        (
            ["run", "-q", "--state", "s.json", "--out", "access.log.1", "access.log"],
            "--out access.log.1 would be read as a rotated access.log (run reads the log's rotated files after a rotation); choose another path (nothing was written)"
        ),
        (
            ["run", "-q", "--state", "s.json", "--html", "./access.log-20261129.gz", "access.log"],
            "--html ./access.log-20261129.gz would be read as a rotated access.log (run reads the log's rotated files after a rotation); choose another path (nothing was written)"
        ),
        (
            ["run", "-q", "--state", "access.log.0", "access.log"],
            "--state access.log.0 would be read as a rotated access.log (run reads the log's rotated files after a rotation); choose another path (nothing was written)"
        ),
    ])
    func readFilesAndRotatedNamesAreNoOutputs(args: [String], message: String) throws {
        let dir = try Scratch()
        try dir.write("access.log", CommandLineTests.alertLog())
        try dir.write("secret.txt", "sekrit\n")
        try dir.write("url.txt", "http://127.0.0.1:9/x\n")
        try dir.write(
            "c.json",
            #"{"logs": ["access.log"], "state": "s.json", "alerts": [{"kind": "dingtalk", "url_file": "url.txt", "secret_file": "secret.txt"}]}"#
        )
        try FileManager.default.createDirectory(atPath: dir.path("conf.d"), withIntermediateDirectories: false)
        try dir.write("nginx.conf", "http {\n include conf.d/*.conf;\n}\n")
        try dir.write("conf.d/f.conf", Self.ua2 + "\n")
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        let result = try Self.run(args, in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "uaaudit: " + message + "\n")
        #expect(result.out.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == listing)
        #expect(try String(contentsOfFile: dir.path("secret.txt"), encoding: .utf8) == "sekrit\n")
        #expect(try String(contentsOfFile: dir.path("url.txt"), encoding: .utf8) == "http://127.0.0.1:9/x\n")
        #expect(try String(contentsOfFile: dir.path("conf.d/f.conf"), encoding: .utf8) == Self.ua2 + "\n")
    }
}

extension GuardRailReviewTests {
    // MARK: 6. a key given twice is refused

    @Test func aKeyGivenTwiceInAConfigOrRulesFileIsAUsageError() throws {
        let dir = try Scratch()
        try dir.write("a.log", CommandLineTests.alertLog())
        let cases: [(file: String, text: String, args: [String], message: String)] = [
            (
                "c.json", #"{"logs": ["a.log"], "state": "s.json", "threshold": "1%", "threshold": "50%"}"#,
                ["run", "-q", "-c", "c.json"],
                "config c.json: key 'threshold' is given twice; give it once (JSON keeps only one of the values, in silence)"
            ),
            (
                "c.json",
                #"{"logs": ["a.log"], "state": "s.json", "insight": {"alert_share_drop": "50%", "alert_share_drop": "90%"}}"#,
                ["run", "-q", "-c", "c.json"],
                "config c.json: key 'insight.alert_share_drop' is given twice; give it once (JSON keeps only one of the values, in silence)"
            ),
            (
                "r.json",
                #"{"rules": [{"class": "bad", "patterns": ["x"], "patterns": ["y"]}], "alert_class": "bad"}"#,
                ["scan", "-q", "--rules", "r.json", "a.log"],
                "rules file r.json is not valid: key 'rules[0].patterns' is given twice; give it once (JSON keeps only one of the values, in silence)"
            ),
        ]
        for c in cases {
            try dir.write(c.file, c.text)
            let result = try Self.run(c.args, in: dir)
            #expect(result.status == 2, "\(c.text)")
            #expect(result.stderr == "uaaudit: " + c.message + "\n")
            #expect(result.out.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
        }
    }
}

extension GuardRailReviewTests {
    // MARK: 7. one log, two spellings, one state entry

    @Test func aLogSpelledAnotherWayContinuesItsStateEntry() throws {
        let dir = try Scratch()
        try dir.write("access.log", CommandLineTests.alertLog())
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.log"), withDestinationPath: "access.log")
        let now = ["--now", "2026-11-29T09:30:00Z"]
        var totals: [Int] = []
        for (i, spelling) in ["access.log", dir.path("access.log"), "./access.log", "link.log"].enumerated() {
            let result = try Self.run(
                ["run", "-q", "--state", "s.json", "--out", "r\(i).json"] + now + [spelling], in: dir)
            #expect(result.status == 0, "\(spelling): \(result.stderr)")
            let report = try #require(
                JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: dir.path("r\(i).json")))) as? [String: Any])
            totals.append(try #require((report["totals"] as? [String: Any])?["requests"] as? Int))
        }
        #expect(totals == [150, 150, 150, 150])
        let state = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("s.json"))))
                as? [String: Any])
        #expect((state["logs"] as? [String: Any]).map { Array($0.keys) } == ["access.log"])
        #expect(state["version"] as? Int == 2)
    }
}

extension GuardRailReviewTests {
    // MARK: 8. did-you-mean only for a likely typo

    static let commands =
        "commands are scan, explain, merge, run, state, alert, classify, rules, doctor, generate, help, version"

    @Test(arguments: [
        (["help", "foo"], "no help for 'foo'; \(commands)"),
        (["foo"], "unknown command 'foo'; \(commands)"),
        (["scna"], "unknown command 'scna'; did you mean 'scan'? \(commands)"),
        (
            ["scan", "--state", "s.json", "a.log"],
            "unknown option --state; --state is an option of run and state, not of this command; see --help"
        ),
        (
            ["merge", "--lock", "x", "r.json"],
            "unknown option --lock; --lock is an option of run, not of this command; see --help"
        ),
        (["scan", "--frobnicate", "a.log"], "unknown option --frobnicate; see --help"),
        (["scan", "--jsn", "a.log"], "unknown option --jsn; did you mean --json? see --help"),
        (
            ["rules", "xyz", "r.json"],
            "unknown rules action 'xyz'; usage: uaaudit rules init|test|lint …; see uaaudit rules --help"
        ),
        (["state", "frob"], "unknown state action 'frob'; usage: uaaudit state show (--state FILE | --config FILE)"),
        (
            ["state", "show", "-c", "c.json"],
            "config c.json: unknown key '_comment' (keys there: alerts, format, grace_seconds, history_hours, host, html, insight, lock, lock_wait_seconds, logs, min_requests, prom, report, rotated_dir, rules, state, threshold, top, version)"
        ),
    ])
    func aSuggestionIsMadeOnlyForALikelyTypo(args: [String], message: String) throws {
        let dir = try Scratch()
        try dir.write("c.json", #"{"_comment": "x", "state": "s.json"}"#)
        let result = try Self.run(args, in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "uaaudit: " + message + "\n")
        #expect(result.out.isEmpty)
    }
}

extension GuardRailReviewTests {
    @Test func aStateOrRulesOutputThatIsALinkKeepsTheLink() throws {
        let dir = try Self.scratchWithLinks()
        try FileManager.default.createDirectory(atPath: dir.path("store"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.path("s.json"), withDestinationPath: "store/state.json")
        let run = try Self.run(["run", "-q", "--state", "s.json", "--now", "2026-11-29T09:30:00Z", "a.log"], in: dir)
        #expect(run.status == 0)
        #expect(Self.isLink(dir.path("s.json")))
        #expect(try String(contentsOfFile: dir.path("store/state.json"), encoding: .utf8).hasPrefix("{"))
        let rules = try Self.run(["rules", "init", "--app", "MyApp", "--out", "stdout"], in: dir)
        #expect(rules.status == 0)
        #expect(rules.out.hasPrefix("{"))
        #expect(Self.isLink(dir.path("stdout")))
        let fifo = try Self.run(["rules", "init", "--app", "MyApp", "--out", "fifo.json"], in: dir)
        #expect(fifo.status == 2)
        #expect(
            fifo.stderr
                == "uaaudit: --out fifo.json is a FIFO, not a regular file; give a file path, or - for stdout (nothing was written)\n"
        )
    }

    // MARK: 9. standard input redirected from a file is that file

    /// `uaaudit ARGS < in.log`, through a shell, in `dir`.
    static func run(_ args: [String], in dir: Scratch, stdinFile: String) throws -> Tool.Result {
        try Tool.run(args, directory: dir.url, launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" < \(stdinFile)"])
    }

    @Test func stdinRedirectedFromAnInputIsThatInputAgain() throws {
        let dir = try Scratch()
        let log = try String(contentsOf: Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log"), encoding: .utf8)
        try dir.write("in.log", log)
        let twice = try Self.run(["scan", "-q", "--json", "in.log", "-"], in: dir, stdinFile: "in.log")
        #expect(twice.status == 2)
        #expect(twice.stdout.isEmpty)
        #expect(
            twice.stderr
                == "uaaudit: the input - (standard input) is in.log again (the same file); give each input once (it would be counted twice)\n"
        )
        // A pipe is no file: the same bytes through one are not refused.
        let piped = try Self.run(["scan", "-q", "--json", "in.log", "-"], in: dir, stdin: Array(log.utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
    }

    @Test func anOutputOverStdinsFileIsRefusedAndTheLogKept() throws {
        let dir = try Scratch()
        let log = try String(contentsOf: Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log"), encoding: .utf8)
        try dir.write("in.log", log)
        let over = try Self.run(["scan", "--out", "in.log", "-"], in: dir, stdinFile: "in.log")
        #expect(over.status == 2)
        #expect(
            over.stderr
                == "uaaudit: --out in.log would overwrite the input - (standard input); choose another path (nothing was written)\n"
        )
        #expect(try String(contentsOfFile: dir.path("in.log"), encoding: .utf8) == log)
        // Through a link too: the output's target is compared.
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.log"), withDestinationPath: "in.log")
        let linked = try Self.run(["scan", "--html", "link.log", "-"], in: dir, stdinFile: "in.log")
        #expect(linked.status == 2)
        #expect(try String(contentsOfFile: dir.path("in.log"), encoding: .utf8) == log)
    }

    /// merge reads files only: its `-` is a file of that name, whatever stdin is.
    @Test func mergeReadsAFileNamedDashNotStdin() throws {
        let dir = try Scratch()
        let lines = try String(
            contentsOf: Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log"), encoding: .utf8
        ).split(separator: "\n")
        try dir.write("a.log", lines.prefix(50).joined(separator: "\n") + "\n")
        try dir.write("b.log", lines.suffix(50).joined(separator: "\n") + "\n")
        #expect(try Self.run(["scan", "-q", "--out", "a.json", "a.log"], in: dir).status == 0)
        #expect(try Self.run(["scan", "-q", "--out", "./-", "b.log"], in: dir).status == 0)
        let merged = try Self.run(["merge", "-q", "--json", "a.json", "-"], in: dir, stdinFile: "a.json")
        #expect(merged.status == 0, "\(merged.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(merged.stdout)) as? [String: Any])
        #expect((object["merged_from"] as? [String])?.count == 2)
        let twice = try Self.run(["merge", "-q", "./-", "-"], in: dir)
        #expect(twice.status == 2)
        #expect(
            twice.stderr
                == "uaaudit: the report - is ./- again (the same file); give each input once (it would be counted twice)\n"
        )
    }

    // MARK: 10. a named FIFO is read once

    @Test func aNamedFIFOIsReadOnceAndReported() throws {
        let dir = try Scratch()
        let log = try [UInt8](Data(contentsOf: Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log")))
        try dir.write("copy.log", String(decoding: log, as: UTF8.self))
        #expect(mkfifo(dir.path("fifo"), 0o644) == 0)
        let path = dir.path("fifo")
        // One writer: it waits for the scan to open the FIFO, writes the log and closes it.
        Thread.detachNewThread {
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            _ = log.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        // `timeout`: a scan that opened the FIFO again would wait for a second writer forever
        // (KILL: blocked in open(2), it restarts the call after a TERM).
        let fifo = try Tool.run(
            ["scan", "-q", "--json", "fifo"], directory: dir.url, launcher: ["/usr/bin/timeout", "-s", "KILL", "30"])
        #expect(fifo.status == 0, "\(fifo.stderr)")
        let file = try Self.run(["scan", "-q", "--json", "copy.log"], in: dir)
        let counts = { (bytes: [UInt8]) throws -> [String: Any]? in
            (try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["totals"] as? [String: Any]
        }
        let fromFIFO = try #require(try counts(fifo.stdout))
        let fromFile = try #require(try counts(file.stdout))
        #expect(fromFIFO["lines"] as? Int == 104)
        #expect(NSDictionary(dictionary: fromFIFO).isEqual(to: fromFile))
    }

    // MARK: 11. a file size limit is a failed write, not a silent death

    @Test func aReportOverTheFileSizeLimitIsExitSixAndLeavesNoTemporaryFile() throws {
        let dir = try Scratch()
        try dir.write("r.json", "old\n")
        let log = Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log").path
        // 8 blocks (of 512 bytes for dash): the report (about 11 KiB) cannot be written whole.
        let limited = try Tool.run(
            ["scan", "-q", "--out", "r.json", log], directory: dir.url,
            // The signal's default action restored: a test runner may ignore it, and children
            // inherit that.
            launcher: ["/usr/bin/env", "--default-signal=XFSZ", "/bin/sh", "-c", "ulimit -f 8 && exec \"$0\" \"$@\""])
        #expect(limited.status == 6)
        #expect(
            limited.stderr == "uaaudit: cannot write report r.json: File too large; the previous report is untouched\n")
        #expect(try String(contentsOfFile: dir.path("r.json"), encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path(".")) == ["r.json"])
    }
}
