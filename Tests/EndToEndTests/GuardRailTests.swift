import Foundation
import Testing

/// Issue 15's guard rails on the built binary: a mistake is exit 2 with a message that says
/// what to do, never a silent exit 0, and no output is ever written over an input.
@Suite struct GuardRailTests {
    static let uaaudit = "uaaudit: "

    /// Runs in `dir`, so that messages name the paths as given.
    static func run(_ args: [String], in dir: Scratch, stdin: [UInt8]? = nil) throws -> Tool.Result {
        try Tool.run(args, stdin: stdin, directory: dir.url)
    }

    static func scratchWithLog() throws -> Scratch {
        let dir = try Scratch()
        try dir.write("a.log", CommandLineTests.alertLog())
        return dir
    }

    // MARK: strict configuration

    @Test(arguments: [
        (
            #"{"treshold": "0.1%"}"#,
            "config c.json: unknown key 'treshold'; did you mean 'threshold'? (keys there: alerts, format, grace_seconds, history_hours, host, html, insight, lock, lock_wait_seconds, logs, min_requests, prom, report, rotated_dir, rules, state, threshold, top, version)"
        ),
        (
            #"{"alert": []}"#,
            "config c.json: unknown key 'alert'; did you mean 'alerts'? (keys there: alerts, format, grace_seconds, history_hours, host, html, insight, lock, lock_wait_seconds, logs, min_requests, prom, report, rotated_dir, rules, state, threshold, top, version)"
        ),
        (
            #"{"format": {"name": "ua_log", "escpe": "json"}}"#,
            "config c.json: unknown key 'format.escpe'; did you mean 'format.escape'? (keys there: escape, name, nginx_conf, string)"
        ),
        (
            #"{"insight": {"baseline_hour": 3}}"#,
            "config c.json: unknown key 'insight.baseline_hour'; did you mean 'insight.baseline_hours'? (keys there: alert_new_family, alert_share_drop, app_classes, baseline_hours, client_key, client_salt_file, show_client_keys)"
        ),
        (
            #"{"alerts": [{"url": "http://127.0.0.1:9/x", "kind": "slack"}, {"url_evn": "X"}]}"#,
            "config c.json: unknown key 'alerts[1].url_evn'; did you mean 'alerts[1].url_env'? (keys there: kind, mentioned_list, mentioned_mobile_list, msgtype, secret, secret_env, secret_file, url, url_env, url_file)"
        ),
    ])
    func anUnknownConfigKeyAtAnyLevelIsAUsageError(config: String, message: String) throws {
        let dir = try Self.scratchWithLog()
        try dir.write("c.json", config)
        for args in [["run", "-c", "c.json", "--state", "s.json", "a.log"], ["state", "show", "-c", "c.json"]] {
            let result = try Self.run(args, in: dir)
            #expect(result.status == 2)
            #expect(result.stderr == Self.uaaudit + message + "\n")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
    }

    @Test func anUnknownKeyInARulesFileIsAUsageError() throws {
        let dir = try Self.scratchWithLog()
        try dir.write("r.json", #"{"rules": [{"class": "bad", "patterns": ["x"]}], "alert_clas": "bad"}"#)
        for args in [
            ["scan", "--rules", "r.json", "a.log"], ["classify", "--rules", "r.json", "x"],
            ["rules", "lint", "r.json"],
        ] {
            let result = try Self.run(args, in: dir)
            #expect(result.status == 2, "\(args)")
            #expect(
                result.stderr
                    == "uaaudit: rules file r.json is not valid: unknown key 'alert_clas'; did you mean 'alert_class'? (keys there: alert_class, app, comment, examples, heap_limit_kib, match_limit, rules, scope, version)\n",
                "\(args)")
        }
    }

    @Test func anUnknownOptionNamesTheClosestOne() throws {
        let dir = try Self.scratchWithLog()
        let result = try Self.run(["scan", "--jsn", "a.log"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == "uaaudit: unknown option --jsn; did you mean --json? see --help\n")
        let merge = try Self.run(["merge", "--thresold=1%", "a.json"], in: dir)
        #expect(merge.status == 2)
        #expect(merge.stderr == "uaaudit: unknown option --thresold; did you mean --threshold? see --help\n")
    }

    /// A valued option given twice used to take the last value in silence; channels (one per
    /// --webhook) still repeat.
    @Test(arguments: [
        (["scan", "--top", "3", "--top=5", "a.log"], "uaaudit: --top is given twice ('3' and '5'); give it once (see --help)\n"),
        (
            ["scan", "-j", "1", "--threads", "2", "a.log"],
            "uaaudit: --threads is given twice ('1' and '2'); give it once (see --help)\n"
        ),
        (
            ["run", "--state", "s.json", "--state", "t.json", "a.log"],
            "uaaudit: --state is given twice ('s.json' and 't.json'); give it once (see --help)\n"
        ),
    ])
    func aValuedOptionGivenTwiceIsAUsageError(args: [String], message: String) throws {
        let dir = try Self.scratchWithLog()
        let result = try Self.run(args, in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(result.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() throws {
        let result = try Tool.run(["help", "scna"])
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        #expect(
            result.stderr
                == "uaaudit: no help for 'scna'; did you mean 'scan'? commands are scan, explain, merge, run, state, alert, classify, rules, doctor, generate, help, version\n"
        )
        let command = try Tool.run(["mrege"])
        #expect(command.status == 2)
        #expect(
            command.stderr
                == "uaaudit: unknown command 'mrege'; did you mean 'merge'? commands are scan, explain, merge, run, state, alert, classify, rules, doctor, generate, help, version\n"
        )
    }

    @Test func anUnknownActionNamesTheClosestOne() throws {
        let state = try Tool.run(["state", "shwo", "--state", "s.json"])
        #expect(state.status == 2)
        #expect(
            state.stderr
                == "uaaudit: unknown state action 'shwo'; did you mean 'show'? usage: uaaudit state show (--state FILE | --config FILE)\n"
        )
        let rules = try Tool.run(["rules", "tset", "r.json"])
        #expect(rules.status == 2)
        #expect(
            rules.stderr
                == "uaaudit: unknown rules action 'tset'; did you mean 'test'? usage: uaaudit rules init|test|lint …; see uaaudit rules --help\n"
        )
    }

    @Test func aThresholdAboveFivePercentWithoutAPercentSignShowsBothReadings() throws {
        let dir = try Self.scratchWithLog()
        let scan = try Self.run(["scan", "--threshold", "0.1", "a.log"], in: dir)
        #expect(scan.status == 2)
        #expect(scan.stderr == "uaaudit: --threshold 0.1 is ambiguous: 0.1 means 10%; for 0.1% write 0.1% or 0.001\n")
        let merge = try Self.run(["merge", "--threshold", "0.5", "a.json"], in: dir)
        #expect(merge.stderr == "uaaudit: --threshold 0.5 is ambiguous: 0.5 means 50%; for 0.5% write 0.5% or 0.005\n")
        try dir.write("c.json", #"{"threshold": 0.25, "state": "s.json", "logs": ["a.log"]}"#)
        let run = try Self.run(["run", "-c", "c.json"], in: dir)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "uaaudit: config threshold 0.25 is ambiguous: 0.25 means 25%; for 0.25% write 0.25% or 0.0025\n")
        // The forms that say what they mean still work.
        for threshold in ["0.1%", "10%", "0.05", "0.001"] {
            #expect(try Self.run(["scan", "-q", "--threshold", threshold, "a.log"], in: dir).status == 0)
        }
    }

    @Test func promMustEndInDotProm() throws {
        let dir = try Self.scratchWithLog()
        let scan = try Self.run(["scan", "-q", "--prom", "m.txt", "a.log"], in: dir)
        #expect(scan.status == 2)
        #expect(
            scan.stderr
                == "uaaudit: --prom m.txt must end in .prom: node_exporter's textfile collector reads only *.prom files\n"
        )
        try dir.write("c.json", #"{"prom": "m.txt", "state": "s.json", "logs": ["a.log"]}"#)
        let run = try Self.run(["run", "-q", "-c", "c.json"], in: dir)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "uaaudit: config prom m.txt must end in .prom: node_exporter's textfile collector reads only *.prom files\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.path("m.txt")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
    }

    // MARK: outputs never clobber inputs

    @Test(arguments: [
        (
            ["scan", "-q", "--out", "a.log", "a.log"],
            "--out a.log would overwrite the input a.log; choose another path (nothing was written)"
        ),
        (
            ["scan", "-q", "--html", "./a.log", "a.log"],
            "--html ./a.log would overwrite the input a.log; choose another path (nothing was written)"
        ),
        (
            ["scan", "-q", "--prom", "link.prom", "a.log"],
            "--prom link.prom would overwrite the input a.log; choose another path (nothing was written)"
        ),
        (
            ["scan", "-q", "--out", "r.json", "--html", "sub/../r.json", "a.log"],
            "--out r.json and --html sub/../r.json are the same file; give each its own path (nothing was written)"
        ),
        (
            ["scan", "-q", "a.log", "./a.log"],
            "the input ./a.log is a.log again (the same file); give each input once (it would be counted twice)"
        ),
        (
            ["scan", "-q", "a.log", "hard.log"],
            "the input hard.log is a.log again (the same file); give each input once (it would be counted twice)"
        ),
        (
            ["scan", "-q", "--rules", "rules.json", "--out", "rules.json", "a.log"],
            "--out rules.json would overwrite the rules file rules.json; choose another path (nothing was written)"
        ),
        (
            ["run", "--state", "s.json", "--out", "s.json", "a.log"],
            "--out s.json would overwrite --state s.json; choose another path (nothing was written)"
        ),
        (
            ["run", "--state", "s.json", "--out", "a.log", "a.log"],
            "--out a.log would overwrite the log a.log; choose another path (nothing was written)"
        ),
        (
            ["run", "--state", "a.log", "a.log"],
            "--state a.log would overwrite the log a.log; choose another path (nothing was written)"
        ),
        (
            ["run", "--state", "s.json", "--lock", "s.json", "a.log"],
            "--lock s.json would overwrite --state s.json; choose another path (nothing was written)"
        ),
        (
            ["run", "--state", "s.json", "--html", "r.html", "--prom", "r.html", "a.log"],
            "--prom r.html must end in .prom: node_exporter's textfile collector reads only *.prom files"
        ),
        (
            ["explain", "2026-11-29T17", "a.log", "hard.log"],
            "the input hard.log is a.log again (the same file); give each input once (it would be counted twice)"
        ),
        (
            ["run", "--state", "s.json", "--out", "c.json", "-c", "c.json"],
            "--out c.json would overwrite the config c.json; choose another path (nothing was written)"
        ),
        (
            ["merge", "r1.json", "r1.json"],
            "the report r1.json is given twice; give each input once (it would be counted twice)"
        ),
        (
            ["merge", "--out", "r1.json", "r1.json", "r2.json"],
            "--out r1.json would overwrite the report r1.json; choose another path (nothing was written)"
        ),
    ])
    func anOutputThatWouldOverwriteAnInputIsRefused(args: [String], message: String) throws {
        let dir = try Self.scratchWithLog()
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.prom"), withDestinationPath: "a.log")
        try FileManager.default.linkItem(atPath: dir.path("a.log"), toPath: dir.path("hard.log"))
        try dir.write("rules.json", #"{"rules": [{"class": "bad", "patterns": ["x"]}], "alert_class": "bad"}"#)
        try dir.write("r1.json", "{}")
        try dir.write("c.json", #"{"logs": ["a.log"]}"#)
        try dir.write("r2.json", "{}")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.path("a.log")))
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        let result = try Self.run(args, in: dir)
        #expect(result.status == 2)
        #expect(result.stderr == Self.uaaudit + message + "\n")
        #expect(result.out.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("a.log"))) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == listing)
        #expect(try String(contentsOfFile: dir.path("r1.json"), encoding: .utf8) == "{}")
    }

    @Test func outDashIsStandardOutput() throws {
        let dir = try Self.scratchWithLog()
        let viaDash = try Self.run(["scan", "--out", "-", "a.log"], in: dir)
        let viaJSON = try Self.run(["scan", "--json", "a.log"], in: dir)
        #expect(viaDash.status == 0)
        #expect(viaDash.stdout == viaJSON.stdout)
        #expect(!FileManager.default.fileExists(atPath: dir.path("-")))
        let run = try Self.run(["run", "--state", "s.json", "--out", "-", "a.log"], in: dir)
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("{"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("-")))
    }

    // MARK: quiet failures

    /// A FIFO as the state made `state show` wait for a writer for ever; a directory or a FIFO
    /// is refused at once, naming what it is.
    @Test(arguments: [("fifo.json", "a FIFO"), ("dir.json", "a directory")])
    func stateShowOfANonRegularFileIsRefused(name: String, kind: String) throws {
        let dir = try Scratch()
        if kind == "a FIFO" {
            #expect(mkfifo(dir.path(name), 0o644) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: dir.path(name), withIntermediateDirectories: false)
        }
        let result = try Self.run(["state", "show", "--state", name], in: dir)
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        #expect(
            result.stderr
                == "uaaudit: state file \(name): is \(kind), not a regular file; it was left as it is "
                + "(move it away to start afresh)\n")
    }

    @Test func stateShowOfAMissingStateNamesThePath() throws {
        let dir = try Scratch()
        let result = try Self.run(["state", "show", "--state", "typo.json"], in: dir)
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        #expect(
            result.stderr
                == "uaaudit: state typo.json does not exist; check --state or the config's \"state\" (uaaudit run creates it)\n"
        )
    }

    @Test func aLoneInputThatCannotBeReadPrintsOnlyItsError() throws {
        let dir = try Scratch()
        let result = try Self.run(["scan", "missing.log"], in: dir)
        #expect(result.status == 3)
        #expect(result.out.isEmpty)
        #expect(result.stderr == "uaaudit: missing.log: cannot open: No such file or directory\n")
    }

    @Test func aRunWhoseOnlyLogCannotBeReadPrintsOnlyItsError() throws {
        let dir = try Scratch()
        let result = try Self.run(["run", "--state", "s.json", "missing.log"], in: dir)
        #expect(result.status == 3)
        #expect(result.out.isEmpty)
        #expect(
            result.stderr
                == "uaaudit: missing.log: does not exist (not created yet, a mount missing, or moved away?); that log was not advanced and will be read again\n"
        )
    }

    // MARK: report ids and overlapping reports

    static func reportID(_ bytes: [UInt8]) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        return object?["report_id"] as? String
    }

    @Test func theReportIDDependsOnInputsAndOptionsOnly() throws {
        let dir = try Scratch()
        try dir.write("a.log", MergeTests.log().joined(separator: "\n") + "\n")
        let one = try Tool.run(["scan", "--json", "--threads", "1", "a.log"], directory: dir.url)
        let two = try Tool.run(
            ["scan", "--json", "--threads", "2", "./a.log"], directory: dir.url,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        let id = try #require(try Self.reportID(one.stdout))
        #expect(id.hasPrefix("scan-"))
        #expect(id.count == 37)
        #expect(try Self.reportID(two.stdout) == id)
        let other = try Tool.run(["scan", "--json", "--threshold", "1%", "a.log"], directory: dir.url)
        #expect(try Self.reportID(other.stdout) != id)
        // stdin has no file to identify: the content stands for it, so it is reproducible too.
        let text = Array(MergeTests.log().joined(separator: "\n").utf8) + [0x0A]
        let a = try Tool.run(["scan", "--json", "-"], stdin: text, directory: dir.url)
        let b = try Tool.run(["scan", "--json", "-"], stdin: text, directory: dir.url)
        #expect(try Self.reportID(a.stdout) == (try Self.reportID(b.stdout)))
        #expect(try Self.reportID(a.stdout) != id)
    }

    @Test func mergeRefusesTheSameReportTwice() throws {
        let dir = try Scratch()
        try dir.write("a.log", MergeTests.log().joined(separator: "\n") + "\n")
        let report = try Tool.run(["scan", "--json", "a.log"], directory: dir.url)
        let id = try #require(try Self.reportID(report.stdout))
        try dir.write("a.json", report.out)
        try dir.write("copy.json", report.out)
        let result = try Self.run(["merge", "--out", "m.json", "a.json", "copy.json"], in: dir)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: a.json and copy.json overlap: they are the same report (\(id)); merging them would count those lines twice (nothing was written)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.path("m.json")))
    }

    @Test func mergeRefusesReportsThatCountedTheSameBytes() throws {
        let dir = try Scratch()
        let lines = MergeTests.log()
        let early = lines[..<300].joined(separator: "\n") + "\n"
        try dir.write("access.log", early)
        try dir.write("early.json", try Tool.run(["scan", "--json", "access.log"], directory: dir.url).out)
        // The log grew; the first scan's bytes are in the second too.
        try dir.write("access.log", early + lines[300...].joined(separator: "\n") + "\n")
        try dir.write("later.json", try Tool.run(["scan", "--json", "access.log"], directory: dir.url).out)
        let size = early.utf8.count
        let result = try Self.run(["merge", "-q", "--out", "m.json", "early.json", "later.json"], in: dir)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: early.json and later.json overlap: both counted bytes 0-\(size) of access.log; merging them would count those lines twice (nothing was written)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.path("m.json")))
    }

    /// Two reports of one run's state, taken an hour apart: the later holds the earlier's
    /// hours (their sources are different bytes, their ids differ), so merging them would
    /// count the first hour twice. Two hosts' run reports of the same log path merge.
    @Test func mergeRefusesTwoReportsOfOneRunState() throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z").status == 0)
        try FileManager.default.copyItem(atPath: h.report, toPath: h.dir.path("early.json"))
        try h.append(20, hour: 11)
        #expect(try h.run(now: "2026-11-29T11:30:00Z").status == 0)
        let runOf = try #require(try h.reportJSON()["run_of"] as? String)
        #expect(runOf.hasPrefix("logs-") && runOf.count == 37)
        let result = try Tool.run(["merge", "-q", "--out", "m.json", "early.json", h.report], directory: h.dir.url)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: early.json and \(h.report) overlap: they are reports of one run's state (the same host and "
                + "logs, \(runOf)) that both hold the hour 2026-11-29T10:00:00+00:00: the later holds the earlier's "
                + "hours; give only the latest; "
                + "merging them would count those lines twice (nothing was written)\n")
        #expect(!FileManager.default.fileExists(atPath: h.dir.path("m.json")))
        // The same log path read on another host is another state.
        let other = try Tool.run(
            ["run", "-q", "--state", h.dir.path("other.json"), "--out", h.dir.path("other-report.json"), "--now",
             "2026-11-29T11:30:00Z", "--host", "other-host", h.log])
        #expect(other.status == 0)
        let merged = try Tool.run(["merge", "-q", "--out", "m.json", "other-report.json", h.report], directory: h.dir.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        // A merge keeps its run reports' run_of with their hours, so merging that merge with
        // another report of one of those states that holds one of its hours is refused too.
        let first = try Tool.run(
            ["merge", "-q", "--out", "m1.json", "other-report.json", "early.json"], directory: h.dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        let m1 = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir.path("m1.json"))))
                as? [String: Any])
        let kept = try unwrap(m1["merged_run_of"] as? [[String: Any]])
        #expect(kept.last?["run_of"] as? String == runOf)
        #expect(kept.last?["hours"] as? [String] == ["2026-11-29T10:00:00+00:00"])
        let again = try Tool.run(["merge", "-q", "--out", "m2.json", "m1.json", h.report], directory: h.dir.url)
        #expect(again.status == 2)
        #expect(
            again.stderr
                == "uaaudit: m1.json and \(h.report) overlap: they are reports of one run's state (the same host and "
                + "logs, \(runOf)) that both hold the hour 2026-11-29T10:00:00+00:00: the later holds the earlier's "
                + "hours; give only the latest; merging them would count those lines twice (nothing was written)\n")
    }

    /// Reports of one state whose hours do not meet (daily archives, each holding its own
    /// hours) merge: only a shared hour would count twice.
    @Test func runReportsOfOneStateWithoutACommonHourMerge() throws {
        let h = try RunHarness()
        try h.append(150, hour: 10)
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: ["--history-hours", "2"]).status == 0)
        try FileManager.default.copyItem(atPath: h.report, toPath: h.dir.path("day1.json"))
        try h.append(20, hour: 15)
        #expect(try h.run(now: "2026-11-29T16:30:00Z", extra: ["--history-hours", "2"]).status == 0)
        let hours = { (name: String) throws -> [String] in
            let json = try unwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir.path(name))))
                    as? [String: Any])
            return try unwrap(json["hours"] as? [[String: Any]]).compactMap { $0["hour"] as? String }
        }
        #expect(try hours("day1.json") == ["2026-11-29T10:00:00+00:00"])
        #expect(try hours("report.json") == ["2026-11-29T15:00:00+00:00"])
        let merged = try Tool.run(["merge", "-q", "--out", "m.json", "day1.json", "report.json"], directory: h.dir.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try hours("m.json") == ["2026-11-29T10:00:00+00:00", "2026-11-29T15:00:00+00:00"])
    }

    @Test func aMergedReportListsWhatItWasMadeFromAndIsNotMergedWithItAgain() throws {
        let dir = try Scratch()
        let lines = MergeTests.log()
        try dir.write("one.log", lines[..<300].joined(separator: "\n") + "\n")
        try dir.write("two.log", lines[300...].joined(separator: "\n") + "\n")
        let one = try Tool.run(["scan", "--json", "one.log"], directory: dir.url)
        let two = try Tool.run(["scan", "--json", "two.log"], directory: dir.url)
        try dir.write("one.json", one.out)
        try dir.write("two.json", two.out)
        let merged = try Self.run(["merge", "-q", "--out", "m.json", "one.json", "two.json"], in: dir)
        #expect(merged.status == 0)
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("m.json"))))
                as? [String: Any])
        let ids = [try Self.reportID(one.stdout), try Self.reportID(two.stdout)].compactMap { $0 }
        #expect(object["merged_from"] as? [String] == ids)
        #expect((object["report_id"] as? String)?.hasPrefix("merge-") == true)
        let again = try Self.run(["merge", "-q", "m.json", "two.json"], in: dir)
        #expect(again.status == 2)
        #expect(
            again.stderr
                == "uaaudit: m.json and two.json overlap: m.json already holds two.json (\(ids[1])); merging them would count those lines twice (nothing was written)\n"
        )
    }

    /// A report written before report ids (committed as it was) is known by its content.
    @Test func aReportWithoutAnIDIsComparedByItsContent() throws {
        let dir = try Scratch()
        let old = Tool.repoRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/report-before-ids.json")
        let text = try String(contentsOf: old, encoding: .utf8)
        #expect(!text.contains("report_id"))
        try dir.write("old.json", text)
        // The same content, written at another time.
        try dir.write(
            "again.json",
            text.replacingOccurrences(
                of: "\"generated_at\" : \"1970-01-01T00:00:00Z\"", with: "\"generated_at\" : \"2026-01-01T00:00:00Z\""))
        let result = try Self.run(["merge", "-q", "old.json", "again.json"], in: dir)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: old.json and again.json overlap: they are the same report (content-e8c09ac53d97bcba8fce74c2fd1bf304); merging them would count those lines twice (nothing was written)\n"
        )
        let alone = try Self.run(["merge", "--json", "old.json"], in: dir)
        #expect(alone.status == 0)
        let merged = try #require(JSONSerialization.jsonObject(with: Data(alone.stdout)) as? [String: Any])
        #expect((merged["merged_from"] as? [String])?.first?.hasPrefix("content-") == true)
    }

    // MARK: JSON output, explain by instant, run --fail-on-alert

    @Test func classifyJSONGivesOneObjectALine() throws {
        let result = try Tool.run(["classify", "--json", Lines.urlsession, "curl/8.4.0", "-"])
        #expect(result.status == 0)
        #expect(
            result.out == #"""
                {"class":"urlsession","pattern":"MyApp/\\d+\\.\\d+\\.\\d+ \\(iPhone;.*iOS \\d+_\\d+\\)","rule":"urlsession","ua":"MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"}
                {"class":"other","pattern":null,"rule":null,"ua":"curl/8.4.0"}
                {"class":"missing","pattern":null,"rule":null,"ua":"-"}

                """#)
        let piped = try Tool.run(["classify", "--json"], stdin: Array("a_b\"c\\ \u{1}\n".utf8))
        #expect(piped.out == #"{"class":"other","pattern":null,"rule":null,"ua":"a_b\"c\\ \u0001"}"# + "\n")
    }

    @Test func explainFindsAnInstantAtAnyOffset() throws {
        let dir = Tool.repoRoot.appendingPathComponent("SampleLogs")
        let byName = try Tool.run(["explain", "2024-03-31T23:00:00+08:00", "ua_log.log"], directory: dir)
        for instant in ["2024-03-31T15:00Z", "2024-03-31T15:59:59Z", "2024-03-31 17:30+02:00", "2024-03-31T15Z"] {
            let byInstant = try Tool.run(["explain", instant, "ua_log.log"], directory: dir)
            #expect(byInstant.status == 0, "\(instant): \(byInstant.stderr)")
            #expect(byInstant.out == byName.out)
        }
        let outside = try Tool.run(["explain", "2024-03-31T12:00Z", "ua_log.log"], directory: dir)
        #expect(outside.status == 2)
        #expect(
            outside.stderr
                == "uaaudit: no hour 2024-03-31T12:00Z in the report; its hours: 2024-03-31T23:00:00+08:00, 2024-04-01T00:00:00+08:00\n"
        )
    }

    @Test func explainJSONIsTheHoursEntryAndWhatJudgesIt() throws {
        let dir = Tool.repoRoot.appendingPathComponent("SampleLogs")
        let result = try Tool.run(["explain", "--json", "2024-03-31T15:00Z", "ua_log.log"], directory: dir)
        #expect(result.status == 0)
        let page = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(Set(page.keys) == ["hour", "threshold", "min_requests", "alert_class", "report_id"])
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("ua_log.log.expected.json")))
                as? [String: Any])
        let hour = try #require((report["hours"] as? [[String: Any]])?.first)
        #expect(
            NSDictionary(dictionary: try #require(page["hour"] as? [String: Any])) == NSDictionary(dictionary: hour))
        let scan = try Tool.run(["scan", "--json", "ua_log.log"], directory: dir)
        #expect(page["report_id"] as? String == (try Self.reportID(scan.stdout)))
        #expect(page["alert_class"] as? String == "inconsistent")
        #expect(page["min_requests"] as? Int == 100)
    }

    @Test func stateShowJSON() throws {
        let dir = try Self.scratchWithLog()
        #expect(
            try Self.run(["run", "-q", "--state", "s.json", "--now", "2026-11-29T09:30:00Z", "a.log"], in: dir).status
                == 0)
        let result = try Self.run(["state", "show", "--json", "--state", "s.json"], in: dir)
        #expect(result.status == 0)
        let state = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(state["path"] as? String == "s.json")
        #expect(state["version"] as? Int == 2)
        #expect(state["closed_hours"] as? Int == 0)
        let open = try #require(state["open_hours"] as? [[String: Any]])
        #expect(open.count == 1)
        #expect(open.first?["hour"] as? String == "2026-11-29T17:00:00+08:00")
        #expect(open.first?["requests"] as? Int == 150)
        let logs = try #require(state["logs"] as? [[String: Any]])
        #expect(logs.first?["log"] as? String == "a.log")
        let current = try #require(logs.first?["current"] as? [String: Any])
        #expect(current["offset"] as? Int == CommandLineTests.alertLog().utf8.count)
        #expect((state["alerts_pending"] as? [Any])?.isEmpty == true)
    }

    @Test func runFailOnAlertExitsOneOnceForAnHourThatClosesBreached() throws {
        let dir = try Self.scratchWithLog()
        // The hour 17:00+08:00 is 09:00Z; with 300 s of grace it closes at 10:05Z.
        let open = try Self.run(
            ["run", "-q", "--fail-on-alert", "--state", "s.json", "--now", "2026-11-29T09:30:00Z", "a.log"], in: dir)
        #expect(open.status == 0)
        let closes = try Self.run(
            ["run", "-q", "--fail-on-alert", "--state", "s.json", "--now", "2026-11-29T10:06:00Z", "a.log"], in: dir)
        #expect(closes.status == 1)
        #expect(closes.stderr == "")
        let later = try Self.run(
            ["run", "-q", "--fail-on-alert", "--state", "s.json", "--now", "2026-11-29T11:06:00Z", "a.log"], in: dir)
        #expect(later.status == 0)
        // Without the flag, the same closing is exit 0.
        try FileManager.default.removeItem(atPath: dir.path("s.json"))
        let plain = try Self.run(["run", "-q", "--state", "s.json", "--now", "2026-11-29T10:06:00Z", "a.log"], in: dir)
        #expect(plain.status == 0)
        // And under the threshold it is exit 0 with the flag.
        try FileManager.default.removeItem(atPath: dir.path("s.json"))
        let under = try Self.run(
            [
                "run", "-q", "--fail-on-alert", "--threshold", "2%", "--state", "s.json", "--now",
                "2026-11-29T10:06:00Z",
                "a.log",
            ], in: dir)
        #expect(under.status == 0)
    }
}
