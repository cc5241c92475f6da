import Foundation
import Testing

/// The built binary's user-facing behaviour: exit codes, messages, stdin, pipes, output files.
@Suite struct CommandLineTests {
    /// 150 requests in one hour, 2 of them inconsistent: over 0.1% with more than 100 requests.
    static func alertLog() -> String {
        var lines = (0..<148).map { _ in Lines.uaLog(ua: Lines.urlsession) }
        lines += [Lines.uaLog(ua: Lines.cfnetwork), Lines.uaLog(ua: Lines.cfnetwork)]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func exitCodesFollowTheDocumentedList() throws {
        let dir = try Scratch()
        let log = try dir.write("a.log", Self.alertLog())
        #expect(try Tool.run(["scan", "-q", log]).status == 0)
        #expect(try Tool.run(["scan", "-q", "--fail-on-alert", log]).status == 1)
        #expect(try Tool.run(["scan", "-q", "--fail-on-alert", "--threshold", "2%", log]).status == 0)
        #expect(try Tool.run(["scan", "-q", "--fail-on-alert", "--min-requests", "151", log]).status == 0)
        let missing = try Tool.run(["scan", "--json", dir.path("nope.log"), log])
        #expect(missing.status == 3)
        #expect(missing.stderr == "uaaudit: \(dir.path("nope.log")): cannot open: No such file or directory\n")
        // The readable input is still reported.
        let report = try JSONSerialization.jsonObject(with: Data(missing.stdout)) as? [String: Any]
        let totals = report?["totals"] as? [String: Any]
        #expect(totals?["requests"] as? Int == 150)
        #expect(try Tool.run(["scan", "--bogus", log]).status == 2)
        #expect(try Tool.run(["scan"]).status == 2)
        #expect(try Tool.run(["frobnicate"]).status == 2)
        #expect(try Tool.run(["scan", "--threads", "0", log]).status == 2)
    }

    @Test func usageErrorsSayWhatToDo() throws {
        let noFiles = try Tool.run(["scan"])
        #expect(noFiles.stderr == "uaaudit: no input files; give FILE... or '-' for stdin (see uaaudit scan --help)\n")
        let badThreshold = try Tool.run(["scan", "--threshold", "lots", "x.log"])
        #expect(badThreshold.status == 2)
        #expect(badThreshold.stderr.hasPrefix("uaaudit: --threshold takes a share from 0 to 1"))
        let dir = try Scratch()
        let rules = try dir.write(
            "r.json", #"{"rules": [{"class": "bad", "patterns": ["a(b"]}], "alert_class": "bad"}"#)
        let badRules = try Tool.run(["scan", "--rules", rules, "x.log"])
        #expect(badRules.status == 2)
        #expect(
            badRules.stderr
                == "uaaudit: rule 'bad': pattern a(b does not compile: missing closing parenthesis at offset 3\n")
        let badFormat = try Tool.run(["scan", "--log-format", "$remote_addr [$time_local]", "x.log"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.hasPrefix("uaaudit: log format has no $http_user_agent"))
    }

    /// `help --help` is the general help; extra words after `version` or a help topic are
    /// usage errors, not silently ignored.
    static let helpAndVersionWords: [([String], Int32, String)] = [
        (["help", "--help"], 0, ""),
        (["help", "-h"], 0, ""),
        (["help", "scan", "--help"], 0, ""),
        (["version", "--bogus"], 2, "uaaudit: version takes no options or operands, not '--bogus'\n"),
        (["version", "extra"], 2, "uaaudit: version takes no options or operands, not 'extra'\n"),
        (["help", "scan", "--bogus"], 2, "uaaudit: help takes one command, not '--bogus'; see uaaudit help\n"),
    ]

    @Test(arguments: helpAndVersionWords)
    func helpAndVersionTakeNoStrayWords(args: [String], status: Int32, stderr: String) throws {
        let result = try Tool.run(args)
        #expect(result.status == status)
        #expect(result.stderr == stderr)
        if status == 0 { #expect(result.out.hasPrefix(args[1] == "scan" ? "Usage: uaaudit scan" : "uaaudit ")) }
    }

    @Test(arguments: [["scan", "--help"], ["classify", "--help"], ["help"], ["help", "scan"]])
    func helpListsOptionsAndExitCodes(args: [String]) throws {
        let result = try Tool.run(args)
        #expect(result.status == 0)
        #expect(result.out.contains("Exit status:\n  0  done\n"))
        #expect(result.out.contains("Usage: uaaudit"))
        #expect(result.out.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func standardInputAndFilesGiveTheSameReport() throws {
        let dir = try Scratch()
        let text = Self.alertLog()
        let log = try dir.write("a.log", text)
        let fromFile = try Tool.run(["scan", "--json", log])
        let fromStdin = try Tool.run(["scan", "--json", "-"], stdin: Array(text.utf8))
        #expect(fromStdin.status == 0)
        let a = try #require(JSONSerialization.jsonObject(with: Data(fromFile.stdout)) as? [String: Any])
        let b = try #require(JSONSerialization.jsonObject(with: Data(fromStdin.stdout)) as? [String: Any])
        #expect(
            NSDictionary(dictionary: a["totals"] as! [String: Any])
                == NSDictionary(dictionary: b["totals"] as! [String: Any]))
        #expect((b["sources"] as? [[String: Any]])?.first?["path"] as? String == "-")
    }

    @Test func outWritesTheSameJSONAsStdout() throws {
        let dir = try Scratch()
        let log = try dir.write("a.log", Self.alertLog())
        let out = dir.path("report.json")
        let result = try Tool.run(["scan", "--json", "--out", out, log])
        #expect(result.status == 0)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == result.stdout)
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        // No temp file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["a.log", "report.json"])
        let unwritable = try Tool.run(["scan", "-q", "--out", "/nonexistent-dir/r.json", log])
        #expect(unwritable.status == 6)
        #expect(
            unwritable.stderr.hasPrefix(
                "uaaudit: cannot write report /nonexistent-dir/r.json: No such file or directory"))
    }

    @Test func summaryFitsEightyColumnsAndEscapesControlBytes() throws {
        let dir = try Scratch()
        var text = Self.alertLog()
        text += Lines.uaLog(ua: #"evil \x1B[2J\x1B]0;pwned\x07 com.apple.CFNetwork"#) + "\n"
        let log = try dir.write("a.log", text)
        let result = try Tool.run(["scan", log])
        #expect(result.status == 0)
        #expect(!result.stdout.contains(0x1B))
        #expect(!result.stdout.contains(0x07))
        #expect(result.out.contains(#"evil \x1B[2J\x1B]0;pwned\x07 com.apple.CFNetwork"#))
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines[0] == "hour                  requests webview urlsess inconsi   other missing  share")
        #expect(lines[1] == "2026-11-29 17:00+08:00     151       0     148       3       0       0 1.987% !")
    }

    /// `| head` closes the pipe while uaaudit may still write; `(exec 0<&-)` closes it before
    /// the scan ends, so that the write surely meets a closed pipe (EPIPE, or death by SIGPIPE
    /// without the handling: bash then reports 141).
    @Test(arguments: ["head -c 10 >/dev/null", "(exec 0<&-)"])
    func aClosedStdoutPipeEndsQuietly(reader: String) throws {
        let dir = try Scratch()
        var big = ""
        for _ in 0..<100 { big += Self.alertLog() }
        let log = try dir.write("big.log", big)
        // Two files (the same one twice would be refused): a longer scan.
        let copy = try dir.write("big2.log", big)
        for output in ["--json", "--top=5"] {
            let result = try ExternalTool.run(
                "/bin/bash",
                ["-c", "set -o pipefail; '\(Tool.binary.path)' scan \(output) '\(log)' '\(copy)' | \(reader)"])
            #expect(result.stderr == "", "\(output)")
            #expect(result.status == 0, "\(output)")
        }
    }

    @Test func classifyNamesTheRuleAndPattern() throws {
        let result = try Tool.run(["classify", Lines.cfnetwork, "curl/8.0"])
        #expect(result.status == 0)
        #expect(
            result.out == """
                inconsistent  YourSDK/1.0 com.apple.CFNetwork/1494.0.7
                              rule inconsistent, pattern com\\.apple\\.CFNetwork|Mozilla/5\\.0 \\(iPhone; CPU iPhone OS \\d+_\\d+ like Mac OS X\\)
                other         curl/8.0
                              no rule matched

                """)
        let fromStdin = try Tool.run(["classify"], stdin: Array("curl/8.0\n\n".utf8))
        #expect(
            fromStdin.out
                == "other         curl/8.0\n              no rule matched\nmissing       (empty)\n              no UA (empty or '-')\n"
        )
    }
}

/// Issue 31: an argument that is not UTF-8 became a U+FFFD path naming another file, or none:
/// it is exit 2, named with its bytes escaped.
@Suite struct NonUTF8ArgumentTests {
    @Test func aPathThatIsNotUTF8IsRefusedNamed() throws {
        let dir = try Scratch()
        // The shell hands uaaudit the byte 0xFF, which a Swift string cannot hold.
        let result = try Tool.run(
            [], directory: dir.url, launcher: ["/bin/sh", "-c", #"exec "$0" scan "$(printf 'caf\351.log')""#])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: argument 2 ('caf\\xE9.log') is not UTF-8: uaaudit takes paths and values in UTF-8; "
                + "rename the file, or give a symbolic link to it with a UTF-8 name\n")
    }
}
