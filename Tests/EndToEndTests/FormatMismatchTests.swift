import Foundation
import Testing

/// Exit 8 (CONTRACTS): more than half of an input's lines, with at least 100, malformed; the
/// hint names the format that parses them, and which field of a sample failed at which byte.
@Suite struct FormatMismatchTests {
    static func combined(_ n: Int) -> String {
        (0..<n).map { i in
            "10.0.0.\(i % 200) - - [01/Dec/2026:13:\(String(format: "%02d", i % 60)):00 +0000] \"GET /p HTTP/1.1\" 200 5 "
                + "\"-\" \"\(Lines.urlsession)\"\n"
        }.joined()
    }

    @Test func scanOfCombinedWithTheDefaultFormatIsExit8WithTheHint() throws {
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.combined(104))
        let result = try Tool.run(["scan", "-q", "--out", dir.path("r.json"), log])
        #expect(result.status == 8)
        #expect(
            result.stderr.hasPrefix(
                "uaaudit: \(log): 104 of 104 lines do not match the log format 'ua_log'; "
                    + "they parse as 'combined': use --format combined\n"
                    + "  line 1: $http_user_agent failed at byte 72: expected a value followed by '\" rt=', "
                    + "which the line lacks from there\n"))
        // The report was still written.
        #expect(FileManager.default.fileExists(atPath: dir.path("r.json")))
        #expect(try Tool.run(["scan", "-q", "--format", "combined", log]).status == 0)
    }

    /// Issue 32: a 60-line combined log under the default format was 60 of 60 malformed and
    /// silent. Under 100 lines it is not exit 8, but the hint is given, whatever the count.
    @Test(arguments: [1, 60, 99]) func aShortInputGetsTheHintWithoutExit8(count: Int) throws {
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.combined(count))
        let state = dir.path("s.json")
        for words in [
            ["scan", "-q", log],
            ["run", "-q", "--state", state, "--out", dir.path("r.json"), "--now", "2026-12-01T15:00:00Z", log],
        ] {
            let result = try Tool.run(words)
            #expect(result.status == 0, "\(words[0]): \(result.stderr)")
            let said = result.stderr.split(separator: "\n").map(String.init)
            #expect(
                said.first
                    == "uaaudit: \(log): \(count) of \(count) lines do not match the log format 'ua_log'; they "
                    + "parse as 'combined': use --format combined",
                "\(words[0])")
            #expect(
                said.dropFirst().first
                    == "  line 1: $http_user_agent failed at byte 72: expected a value followed by '\" rt=', "
                    + "which the line lacks from there")
            #expect(said.last == "  (\(count) line\(count == 1 ? "" : "s") only: an input is exit 8 from 100 lines)")
        }
        // A short input that no known format parses says nothing more than before.
        let noise = try dir.write("noise.log", "not a log line\n")
        #expect(try Tool.run(["scan", "-q", noise]).stderr == "")
    }

    /// Lines longer than the 512 bytes a sample keeps (a long referer) are probed whole: the
    /// hint used to say no format parses them.
    @Test func longLinesAreProbedWhole() throws {
        let dir = try Scratch()
        let referer = "https://example.com/" + String(repeating: "a", count: 500)
        let text = Self.combined(150).replacingOccurrences(of: "200 5 \"-\"", with: "200 5 \"\(referer)\"")
        let log = try dir.write("long.log", text)
        let result = try Tool.run(["scan", "-q", log])
        #expect(result.status == 8)
        #expect(
            result.stderr.hasPrefix(
                "uaaudit: \(log): 150 of 150 lines do not match the log format 'ua_log'; "
                    + "they parse as 'combined': use --format combined\n"), "\(result.stderr)")
    }

    @Test func underTheMinimumOrUnderHalfIsNotAMismatch() throws {
        let dir = try Scratch()
        // 99 malformed of 99: too few lines to judge.
        #expect(try Tool.run(["scan", "-q", try dir.write("a.log", Self.combined(99))]).status == 0)
        // 100 malformed of 200: exactly half is not more than half.
        let half = Self.combined(100) + String(repeating: Lines.uaLog(ua: Lines.urlsession) + "\n", count: 100)
        #expect(try Tool.run(["scan", "-q", try dir.write("b.log", half)]).status == 0)
        // 101 of 201 is.
        let over = Self.combined(101) + String(repeating: Lines.uaLog(ua: Lines.urlsession) + "\n", count: 100)
        #expect(try Tool.run(["scan", "-q", try dir.write("c.log", over)]).status == 8)
    }

    @Test func theNginxConfigsFormatsAreTriedToo() throws {
        let dir = try Scratch()
        let lines = (0..<120).map { _ in "2026-12-01T13:05:00+00:00|\(Lines.urlsession)\n" }.joined()
        let log = try dir.write("pipe.log", lines)
        let conf = try dir.write(
            "nginx.conf",
            "http { log_format pipe '$time_iso8601|$http_user_agent'; log_format other '$msec $http_user_agent'; }")
        let result = try Tool.run(["scan", "-q", "--nginx-conf", conf, "--format", "other", log])
        #expect(result.status == 8)
        #expect(result.stderr.contains("they parse as 'pipe': use --nginx-conf \(conf) --format pipe"))
        #expect(result.stderr.contains("  line 1: $msec failed at byte 1: expected seconds.milliseconds"))
    }

    @Test func nothingParsesThemSaysToRunDoctor() throws {
        let dir = try Scratch()
        let log = try dir.write("junk.log", String(repeating: "hello world\n", count: 100))
        let result = try Tool.run(["scan", "-q", log])
        #expect(result.status == 8)
        #expect(result.stderr.contains("no known format parses them either (tried combined): run 'uaaudit doctor'"))
    }

    @Test func runIsExit8AndNamesTheConfigKey() throws {
        let dir = try Scratch()
        let log = try dir.write("access.log", Self.combined(150))
        let config = try dir.write(
            "u.json",
            #"{"version": 1, "logs": ["\#(log)"], "format": {"name": "ua_log"}, "state": "\#(dir.path("s.json"))"}"#)
        let result = try Tool.run(["run", "-q", "--heartbeat", "--config", config, "--prom", dir.path("u.prom")])
        #expect(result.status == 8)
        #expect(
            result.stderr.contains(
                "150 of 150 lines do not match the log format 'ua_log'; they parse as 'combined': "
                    + "use \"format\": {\"name\": \"combined\"} in the config"))
        #expect(
            result.stderr.contains(
                "uaaudit: run: lines 150, malformed 150, hours closed 0, alerts sent 0, alerts pending 0, gaps 0, exit 8\n"
            ))
        let prom = try String(contentsOfFile: dir.path("u.prom"), encoding: .utf8)
        #expect(prom.contains("uaaudit_latest_lines 150\n"))
        #expect(prom.contains("uaaudit_latest_malformed_ratio 1.0\n"))
        // Nothing was committed: once the format is fixed, the next run reads those lines.
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
        #expect(try Tool.run(["run", "-q", "--config", config]).status == 8)
        try dir.write(
            "u.json",
            #"{"version": 1, "logs": ["\#(log)"], "format": {"name": "combined"}, "state": "\#(dir.path("s.json"))"}"#)
        let fixed = try Tool.run(["run", "-q", "--heartbeat", "--config", config])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stderr.contains("uaaudit: run: lines 150, malformed 0, "), "\(fixed.stderr)")
    }
}

extension FormatMismatchTests {
    @Test func aSecondMismatchedInputIsNamedTooThoughTheSamplesAreTheFirsts() throws {
        let dir = try Scratch()
        let first = try dir.write("a.log", Self.combined(120))
        let second = try dir.write("b.log", Self.combined(130))
        let result = try Tool.run(["scan", "-q", first, second])
        #expect(result.status == 8)
        #expect(
            result.stderr.contains(
                "\(first): 120 of 120 lines do not match the log format 'ua_log'; they parse as 'combined'"))
        #expect(
            result.stderr.contains(
                "\(second): 130 of 130 lines do not match the log format 'ua_log'; they parse as 'combined'"))
    }

    /// A run of two logs, one fine and one in the wrong format: the gauges show the bad one
    /// (totals across logs hid it: 200 bad of 1,240 is 16%, and the alert never fired).
    @Test func theGaugesShowTheWorstLogOfARun() throws {
        let dir = try Scratch()
        let good = try dir.write("a.log", String(repeating: Lines.uaLog(ua: Lines.urlsession) + "\n", count: 1040))
        let bad = try dir.write("b.log", Self.combined(200))
        let result = try Tool.run([
            "run", "-q", "--state", dir.path("s.json"), "--prom", dir.path("u.prom"), "--now", "2026-11-29T12:00:00Z",
            good, bad,
        ])
        #expect(result.status == 8, "\(result.stderr)")
        let prom = try String(contentsOfFile: dir.path("u.prom"), encoding: .utf8)
        #expect(prom.contains("uaaudit_latest_lines 200\n"), "\(prom)")
        #expect(prom.contains("uaaudit_latest_malformed_ratio 1.0\n"), "\(prom)")
    }
}
