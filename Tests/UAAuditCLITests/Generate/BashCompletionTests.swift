import Foundation
import Testing

@testable import UAAuditCLI

/// The bash script run for real: sourced in bash, its function called with COMP_WORDS and
/// COMP_CWORD set as bash sets them, COMPREPLY read back.
@Suite struct BashCompletionTests {
    /// A scratch directory holding the script and a few files to complete.
    final class Directory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-bash-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(at: url.appendingPathComponent("logs"), withIntermediateDirectories: true)
            for file in ["access.log", "report.json", "rules.json"] {
                FileManager.default.createFile(atPath: url.appendingPathComponent(file).path, contents: Data())
            }
            try BashCompletion.render().write(to: url.appendingPathComponent("uaaudit.bash"), atomically: true, encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static let bashCompletion = "/usr/share/bash-completion/bash_completion"

    /// What bash offers when the words are `words`, the cursor at the end of the last one; with
    /// `line`, COMP_LINE as the user typed it (bash splits words at ':' and '='). Run under
    /// `set -e`, as some users' shells are: the shell must survive completing. With
    /// `bashCompletion`, the bash-completion package's helpers are loaded first.
    static func complete(
        _ words: [String], line: String? = nil, bashCompletion: Bool = false, in directory: Directory
    ) throws -> [String] {
        let quoted = words.map(quote).joined(separator: " ")
        let code = """
            \(bashCompletion ? "source \(Self.bashCompletion)" : "")
            set -e
            source ./uaaudit.bash
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            \(line.map { "COMP_LINE=\(quote($0)); COMP_POINT=${#COMP_LINE}" } ?? "")
            _uaaudit
            for w in "${COMPREPLY[@]}"; do printf '%s\\n' "$w"; done
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", code]
        process.currentDirectoryURL = directory.url
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(errors == "")
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static let cases: [([String], [String])] = [
        (["uaaudit", "sc"], ["scan"]),
        (["uaaudit", "s"], ["scan", "state"]),
        (["uaaudit", "scan", "--thr"], ["--threshold", "--threads"]),
        (["uaaudit", "-q", "ru"], ["run", "rules"]),
        (["uaaudit", "scan", "--format", ""], ["ua_log", "combined"]),
        (["uaaudit", "scan", "--format", "=", "c"], ["combined"]),
        (["uaaudit", "scan", "--format", "="], ["ua_log", "combined"]),
        (["uaaudit", "run", "--escape", ""], ["default", "json", "none"]),
        (["uaaudit", "alert", "test", "--webhook", "http://h/", "--webhook-kind", "d"], ["dingtalk"]),
        (["uaaudit", "scan", "--threshold", ""], []),
        (["uaaudit", "scan", "-j", ""], []),
        (["uaaudit", "scan", "-o", "rep"], ["report.json"]),
        (["uaaudit", "scan", "-q", "acc"], ["access.log"]),
        (["uaaudit", "scan", "--rules", "r"], ["report.json", "rules.json"]),
        (["uaaudit", "doctor", "--state-dir", ""], ["logs"]),
        (["uaaudit", "state", ""], ["show"]),
        (["uaaudit", "state", "--state", "s.json", ""], ["show"]),
        (["uaaudit", "state", "--state=s.json", ""], ["show"]),
        (["uaaudit", "state", "show", ""], []),
        (["uaaudit", "alert", "t"], ["test"]),
        (["uaaudit", "rules", "l"], ["lint"]),
        (["uaaudit", "rules", "test", "rul"], ["rules.json"]),
        (["uaaudit", "generate", ""], ["man", "bash", "zsh"]),
        (["uaaudit", "help", "me"], ["merge"]),
        (["uaaudit", "classify", "--j"], ["--json"]),
        (["uaaudit", "version", ""], []),
        // After '--' every word is an operand: files only, no options.
        (["uaaudit", "scan", "--", "-"], []),
        (["uaaudit", "scan", "--", "--out", "acc"], ["access.log"]),
        // '-' is an operand (stdin): doctor takes one, so nothing more is offered.
        (["uaaudit", "doctor", "-", ""], []),
        // -qj wants a number next, not a file.
        (["uaaudit", "scan", "-qj", ""], []),
        (["uaaudit", "scan", "-qo", "rep"], ["report.json"]),
    ]

    @Test(arguments: cases)
    func completes(words: [String], offered: [String]) throws {
        let directory = try Directory()
        #expect(try Self.complete(words, in: directory) == offered)
    }

    /// `(( operands++ ))` is 0, a failure that ends a shell running with `set -e`.
    @Test func aShellWithSetESurvivesCompletingAnOperand() throws {
        let directory = try Directory()
        #expect(try Self.complete(["uaaudit", "state", "show", ""], in: directory) == [])
        #expect(try Self.complete(["uaaudit", "scan", "x.log", ""], in: directory).contains("access.log"))
    }

    /// bash splits `https://h/x` at ':' into three words; they are one operand again, with
    /// bash-completion's helper or without it.
    @Test(arguments: [false, true])
    func aColonInAnEarlierWordDoesNotBreakCompletion(bashCompletion: Bool) throws {
        if bashCompletion, !FileManager.default.fileExists(atPath: Self.bashCompletion) { return }
        let directory = try Directory()
        #expect(
            try Self.complete(
                ["uaaudit", "alert", "--webhook", "https", ":", "//h/x", ""], line: "uaaudit alert --webhook https://h/x ",
                bashCompletion: bashCompletion, in: directory) == ["test"])
        #expect(
            try Self.complete(
                ["uaaudit", "alert", "--webhook", "=", "https", ":", "//h/x", "t"],
                line: "uaaudit alert --webhook=https://h/x t", bashCompletion: bashCompletion, in: directory) == ["test"])
        // A colon typed apart stays a word of its own.
        #expect(
            try Self.complete(["uaaudit", "state", ":", ""], line: "uaaudit state : ", in: directory) == [])
    }

    /// Every declared option of a command, and nothing else, is offered after `-`: a declared
    /// option missing from the script fails here.
    @Test(arguments: CommandSpec.all.map(\.name))
    func offersEveryDeclaredOptionOfTheCommand(command: String) throws {
        let directory = try Directory()
        let options = CommandSpec.all.first { $0.name == command }!.options
        let names = options.flatMap { ($0.short.map { ["-\($0)"] } ?? []) + [$0.flag] }
        #expect(try Self.complete(["uaaudit", command, "-"], in: directory) == names)
    }
}
