import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `uaaudit rules init|test|lint`, examples checked on load, and streaming `classify`, run as
/// the built binary.
@Suite struct RulesCommandTests {
    @Test func initPrintsRulesThatPassTheirExamplesAndWritesThemWithOut() throws {
        let printed = try Tool.run(["rules", "init", "--app", "WeatherBug Elite", "--bundle", "WeatherBug Widget"])
        #expect(printed.status == 0)
        #expect(printed.stderr == "")
        let rules = try RulesFile.parse(printed.stdout, path: "printed")
        #expect(rules.app == "WeatherBug Elite")
        #expect(rules.failingExamples() == [])
        let dir = try Scratch()
        let written = try Tool.run([
            "rules", "init", "--app", "WeatherBug Elite", "--bundle", "WeatherBug Widget", "--out", dir.path("r.json"),
        ])
        #expect(written.status == 0)
        #expect(written.stdout.isEmpty)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: dir.path("r.json")))) == printed.stdout)
        let classified = try Tool.run([
            "classify", "--rules", dir.path("r.json"), "WeatherBug Elite/5.97.0 (iPhone; iOS 18.1.1; Scale/2.00)",
            "WeatherBug%20Widget/1 CFNetwork/1494.0.7 Darwin/23.4.0",
        ])
        #expect(
            classified.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { $0.prefix(12) } == [
                "urlsession  ", "inconsistent",
            ])
    }

    @Test(arguments: [
        (["rules", "init"], "uaaudit: rules init needs --app NAME: the name in your app's UA\n"),
        (
            ["rules", "init", "--app", "a/b"],
            "uaaudit: --app 'a/b' must be non-empty, without control characters or '/', and not start or end with a space\n"
        ),
        (["rules"], "uaaudit: usage: uaaudit rules init|test|lint …; see uaaudit rules --help\n"),
        (["rules", "lint"], "uaaudit: usage: uaaudit rules lint FILE\n"),
        // An option of init given to test or lint says whose it is.
        (
            ["rules", "test", "r.json", "--bundle", "x"],
            "uaaudit: --bundle belongs to rules init, not rules test; see uaaudit rules --help\n"
        ),
        (
            ["rules", "lint", "r.json", "-o", "x.json"],
            "uaaudit: --out belongs to rules init, not rules lint; see uaaudit rules --help\n"
        ),
    ])
    func badUsageIsExitTwo(args: [String], message: String) throws {
        let result = try Tool.run(args)
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    static let failing = #"""
        {"rules": [{"class": "urlsession", "patterns": ["^MyApp/"]}, {"class": "inconsistent", "patterns": ["CFNetwork/"]}],
         "examples": [{"ua": "MyApp/1 CFNetwork/1 Darwin/2", "class": "inconsistent"},
                      {"ua": "MyApp/1 (iPhone; iOS 17.4)", "class": "urlsession"}]}
        """#

    @Test func aFailingExampleStopsScanAndClassifyWithExitTwo() throws {
        let dir = try Scratch()
        let rules = try dir.write("r.json", Self.failing)
        let log = try dir.write("a.log", Lines.uaLog(ua: "curl/8") + "\n")
        let message =
            "uaaudit: rules file \(rules): example 'MyApp/1 CFNetwork/1 Darwin/2' should be inconsistent, but rule "
            + "'urlsession' took it (pattern ^MyApp/)\n"
        for args in [["scan", "--rules", rules, log], ["classify", "--rules", rules, "curl/8"]] {
            let result = try Tool.run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr == message, "\(args)")
            #expect(result.stdout.isEmpty, "\(args)")
        }
    }

    @Test func testReportsExamplesAndCountsAListPerClassAndPattern() throws {
        let dir = try Scratch()
        let rules = try dir.write("r.json", Self.failing)
        let list = try dir.write("uas.txt", "MyApp/2 (iPad)\ncurl/8\n-\nA/1 CFNetwork/2\n")
        let result = try Tool.run(["rules", "test", rules, list])
        #expect(result.status == 2)
        #expect(
            result.out == """
                examples: 1 of 2 pass
                  FAIL example 'MyApp/1 CFNetwork/1 Darwin/2' should be inconsistent, but rule 'urlsession' took it (pattern ^MyApp/)

                UAs in \(list): 4
                  urlsession            1    25.00%
                  inconsistent          1    25.00%
                  other                 1    25.00%
                  missing               1    25.00%
                  errors                0    0.000%

                by rule and pattern:
                  urlsession            1  ^MyApp/
                  inconsistent          1  CFNetwork/

                """)
        let fromStdin = try Tool.run(
            ["rules", "test", Tool.repoRoot.appendingPathComponent("rules/ios-defaults.json").path, "-"],
            stdin: Array("curl/8\n".utf8))
        #expect(fromStdin.status == 0)
        #expect(fromStdin.out.hasPrefix("examples: 32 of 32 pass\n\nUAs in stdin: 1\n"))
        let missing = try Tool.run(["rules", "test", rules, dir.path("nope.txt")])
        #expect(missing.status == 3)
    }

    @Test func lintFindsShadowingAndIsCleanOnTheShippedFile() throws {
        let dir = try Scratch()
        let rules = try dir.write("r.json", Self.failing)
        let result = try Tool.run(["rules", "lint", rules])
        #expect(result.status == 2)
        #expect(
            result.out
                == "shadowed: rule 'inconsistent': earlier rule 'urlsession' takes its example "
                + "'MyApp/1 CFNetwork/1 Darwin/2' (pattern ^MyApp/)\n"
                + "\(rules): 1 finding\n")
        let shipped = try Tool.run([
            "rules", "lint", Tool.repoRoot.appendingPathComponent("rules/ios-defaults.json").path,
        ])
        #expect(shipped.status == 0)
    }

    @Test func classifyStreamsManyLinesInOrder() throws {
        var input = ""
        for i in 0..<20_000 {
            input += i % 2 == 0 ? "curl/\(i)\n" : "MyApp/5.12.1 (iPhone; iPhone15,3; iOS 17_\(i % 9))\n"
        }
        let result = try Tool.run(["classify"], stdin: Array(input.utf8))
        #expect(result.status == 0)
        let heads = result.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(heads.count == 20_000)
        #expect(heads[0] == "other         curl/0")
        #expect(heads[19_999] == "urlsession    MyApp/5.12.1 (iPhone; iPhone15,3; iOS 17_1)")
    }

    /// Output is flushed before uaaudit waits for more input: a line gets its answer while stdin stays open.
    @Test func classifyAnswersEachLineBeforeStdinEnds() throws {
        let process = Process()
        process.executableURL = Tool.binary
        process.arguments = ["classify"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data("curl/8\n".utf8))
        var answer = Data()
        let deadline = Date().addingTimeInterval(10)
        while String(decoding: answer, as: UTF8.self).split(separator: "\n").count < 2, Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            answer.append(chunk)
        }
        #expect(String(decoding: answer, as: UTF8.self) == "other         curl/8\n              no rule matched\n")
    }
}
