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

    /// What bash offers when the words are `words`, the cursor at the end of the last one.
    static func complete(_ words: [String], in directory: Directory) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let code = """
            source ./uaaudit.bash
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
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
    ]

    @Test(arguments: cases)
    func completes(words: [String], offered: [String]) throws {
        let directory = try Directory()
        #expect(try Self.complete(words, in: directory) == offered)
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
