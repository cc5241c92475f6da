import Foundation
import Testing

/// What uaaudit does on a terminal, run under a pseudo-terminal (`script`): the progress line
/// on stderr (drawn, redrawn, erased), never on a pipe, never with `--quiet`, never in the
/// JSON; colour in the summary only on a terminal and never with NO_COLOR.
@Suite struct TerminalTests {
    static func script() -> String? {
        ExternalTool.find(.script, test: "the terminal test")
    }

    /// Runs `command` with bash under a pseudo-terminal; returns what the terminal showed, with
    /// the terminal's `\r\n` for each newline turned back into `\n`.
    static func onTerminal(_ script: String, _ command: String, environment: [String: String] = [:]) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["SOURCE_DATE_EPOCH"] = "0"
        env["TERM"] = "xterm"
        env["NO_COLOR"] = nil
        for (k, v) in environment { env[k] = v }
        let result = try ExternalTool.run(script, ["-qec", command, "/dev/null"], environment: env)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// 40,000 requests (6,800,000 bytes) in a directory of their own.
    static func bigLog() throws -> (dir: Scratch, path: String) {
        let dir = try Scratch()
        let line = Lines.uaLog(ua: Lines.urlsession) + "\n"
        let path = try dir.write("big.log", String(repeating: line, count: 40_000))
        return (dir, path)
    }

    /// A shell pipeline that gives uaaudit's stdin the first MB of `path`, pauses 1.2 s (long
    /// enough for the progress line to be drawn), then the rest.
    static func slowly(_ path: String) -> String {
        "(head -c 1000000 '\(path)'; sleep 1.2; tail -c +1000001 '\(path)')"
    }

    /// The draws of a progress line: each is `\r`, the line, erase-to-end of line; the last thing
    /// written erases the line. Returns the lines drawn.
    static func draws(_ shown: String) -> [String] {
        let pieces = shown.components(separatedBy: "\u{1B}[K")
        #expect(pieces.last == "", "\(shown.debugDescription)")
        #expect(pieces.dropLast().last == "\r", "\(shown.debugDescription)")
        let drawn = pieces.dropLast(2)
        #expect(drawn.allSatisfy { $0.first == "\r" && !$0.dropFirst().contains("\r") }, "\(shown.debugDescription)")
        return drawn.map { String($0.dropFirst()) }
    }

    @Test(.requires(.script)) func aScanOfStandardInputShowsBytesAndLinesAndErasesTheLine() throws {
        guard let script = Self.script() else { return }
        let (dir, log) = try Self.bigLog()
        let out = dir.path("out.json")
        let uaaudit = Tool.binary.path
        let shown = try Self.onTerminal(script, "\(Self.slowly(log)) | '\(uaaudit)' scan --json - > '\(out)'")
        let lines = Self.draws(shown)
        // While stdin pauses, exactly its first 1,000,000 bytes are done (5,847 lines, fewer than
        // the 8,192 a thread adds up before it reports); stdin has no size, so no total or ETA.
        #expect(lines.filter { $0 == "scanning 976.6 KiB, 0 lines/s" }.count >= 2, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("scanning ") && $0.hasSuffix(" lines/s") }, "\(lines)")
        // The JSON went to its file untouched: the same bytes as without a terminal.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: log)))
        let plain = try Tool.run(["scan", "--json", "-"], stdin: bytes)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == plain.stdout)
        #expect(plain.stderr == "")
    }

    @Test(.requires(.script)) func aScanOfAFileShowsBytesOfTheTotalAndTheTimeLeft() throws {
        guard let script = Self.script() else { return }
        let (dir, log) = try Self.bigLog()
        let size = try unwrap(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
        #expect(size == 6_800_000)
        let uaaudit = Tool.binary.path
        // Debug builds only: draw at once instead of after half a second, so that a scan of a
        // few megabytes shows the line.
        let shown = try Self.onTerminal(
            script, "'\(uaaudit)' scan --json '\(log)' > '\(dir.path("out.json"))'",
            environment: ["UAAUDIT_TEST_PROGRESS_DELAY": "0"])
        let lines = Self.draws(shown)
        let pattern = try NSRegularExpression(
            pattern:
                #"^scanning [0-9.]+ (B|KiB|MiB) of 6\.5 MiB \([0-9]+%\), [0-9.]+ (k |M )?lines/s, ETA ([0-9hms]+|--)$"#)
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(pattern.firstMatch(in: line, range: NSRange(0..<line.utf16.count)) != nil, "\(line)")
        }
    }

    @Test(.requires(.script)) func noProgressOnAPipeOrWithQuiet() throws {
        guard let script = Self.script() else { return }
        let (dir, log) = try Self.bigLog()
        let uaaudit = Tool.binary.path
        let err = dir.path("stderr.txt")
        // stderr to a file, on a terminal otherwise.
        let piped = try Self.onTerminal(
            script, "\(Self.slowly(log)) | '\(uaaudit)' scan --json - > /dev/null 2> '\(err)'")
        #expect(piped == "")
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "")
        let quiet = try Self.onTerminal(script, "\(Self.slowly(log)) | '\(uaaudit)' scan -q -")
        #expect(quiet == "")
    }

    @Test(.requires(.script)) func theSummaryIsColouredOnATerminalUnlessNoColor() throws {
        guard let script = Self.script() else { return }
        let dir = try Scratch()
        let log = try dir.write("a.log", CommandLineTests.alertLog())
        let uaaudit = Tool.binary.path
        let coloured = try Self.onTerminal(script, "'\(uaaudit)' scan '\(log)'")
        let lines = coloured.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[0]
                == "\u{1B}[1mhour                  requests webview urlsess inconsi   other missing  share\u{1B}[0m")
        #expect(
            lines[1]
                == "\u{1B}[1;31m2026-11-29 17:00+08:00     150       0     148       2       0       0 1.333% !\u{1B}[0m"
        )
        #expect(lines[5] == "\u{1B}[1;31malert hours (marked !): 1 of 1, where the inconsistent share\u{1B}[0m")
        // Without the codes it is the summary a pipe gets, character for character.
        let plain = try Tool.run(["scan", log])
        let stripped = coloured.replacingOccurrences(
            of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain.out)
        #expect(!plain.stdout.contains(0x1B))
        for noColor in ["1", "yes"] {
            let uncoloured = try Self.onTerminal(
                script, "'\(uaaudit)' scan '\(log)'", environment: ["NO_COLOR": noColor])
            #expect(uncoloured == plain.out)
        }
        // NO_COLOR set but empty does not count (no-color.org); TERM=dumb does.
        #expect(try Self.onTerminal(script, "'\(uaaudit)' scan '\(log)'", environment: ["NO_COLOR": ""]) == coloured)
        #expect(try Self.onTerminal(script, "'\(uaaudit)' scan '\(log)'", environment: ["TERM": "dumb"]) == plain.out)
    }
}
