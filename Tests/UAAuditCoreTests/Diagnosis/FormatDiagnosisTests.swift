import Glibc
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// What `doctor` finds of each access_log: its format, whether it can be read (and by the
/// service account's group), whether its last lines parse; and the format it chooses.
@Suite struct FormatDiagnosisTests {
    static let shortFormat = #"$remote_addr [$time_local] $status "$http_user_agent""#
    static let shortLine = #"1.2.3.4 [01/Dec/2026:13:05:00 +0000] 200 "curl/8""#

    static func lines(_ line: String, _ count: Int) -> [UInt8] {
        Array(String(repeating: line + "\n", count: count).utf8)
    }

    /// An nginx.conf in `dir` whose `access_log` lines are `logs` (path, format name).
    static func conf(_ dir: TempDirectory, _ logs: [(String, String)]) throws -> NginxConfigTree {
        var text = "http {\n    log_format short '\(shortFormat)';\n"
        for (path, format) in logs { text += "    access_log \(path) \(format);\n" }
        text += "}\n"
        return try NginxSource.file(try dir.write("nginx.conf", Array(text.utf8))).load()
    }

    /// The log in `short` is chosen by its log_format's name; the one nginx.conf says is
    /// combined, whose lines are `short` too, is checked and found not to parse.
    @Test func theLogFormatThatMatchesIsChosenAndNamed() throws {
        let dir = try TempDirectory()
        let a = try dir.write("a.log", Self.lines(Self.shortLine, 30))
        let b = try dir.write("b.log", Self.lines(Self.shortLine, 5))
        let tree = try Self.conf(dir, [(a, "short"), (b, "combined")])
        let diagnosis = FormatDiagnosis.examine(tree, lastLines: 20)
        #expect(diagnosis.skipped.isEmpty)
        #expect(diagnosis.checks.map(\.log.path) == [a, b])
        #expect(diagnosis.checks.map(\.definition?.name) == ["short", "combined"])
        #expect(diagnosis.checks.map(\.checked) == [20, 5])
        #expect(diagnosis.checks.map(\.parsed) == [20, 0])
        #expect(diagnosis.checks.map(\.unreadable) == [nil, nil])
        #expect(diagnosis.checks.map(\.admCanRead) == [.readable, .readable])
        #expect(diagnosis.checks[0].failure == nil)
        #expect(
            diagnosis.checks[1].failure?.description
                == "$remote_addr failed at byte 1: expected a value followed by ' - ', which the line lacks from there")
        #expect(
            diagnosis.chosen?.definition
                == NginxConfigTree.Definition(
                    name: "short", string: Self.shortFormat, escape: .default, place: dir.path("nginx.conf") + ":2"))
        #expect(diagnosis.chosen?.logs == [a])
        // b.log's lines do not parse in the format nginx.conf gives it.
        #expect(diagnosis.verdict == .mismatch)
    }

    @Test func logsThatParseAreFine() throws {
        let dir = try TempDirectory()
        let a = try dir.write("a.log", Self.lines(Self.shortLine, 3))
        let diagnosis = FormatDiagnosis.examine(try Self.conf(dir, [(a, "short")]), lastLines: 20)
        #expect(diagnosis.checks.map(\.checked) == [3])
        #expect(diagnosis.checks.map(\.parsed) == [3])
        #expect(diagnosis.verdict == .fine)
    }

    /// A log that cannot be read is named with the reason, and never chosen: with no other
    /// log, doctor's verdict is the unreadable log, not the format.
    @Test func anUnreadableLogGivesTheAccessFinding() throws {
        let dir = try TempDirectory()
        let missing = dir.path("missing.log")
        let gzip = try dir.write("gz.log", [0x1F, 0x8B, 0x08, 0x00])
        let tree = try Self.conf(dir, [(missing, "short"), (gzip, "short")])
        let diagnosis = FormatDiagnosis.examine(tree, lastLines: 20)
        #expect(
            diagnosis.checks.map(\.unreadable) == [
                "No such file or directory",
                "is gzip-compressed (access_log … gzip=): uaaudit run cannot follow it; log the audited "
                    + "access_log without gzip=",
            ])
        #expect(diagnosis.checks.map(\.checked) == [0, 0])
        #expect(diagnosis.checks[0].admCanRead == nil)
        #expect(diagnosis.chosen == nil)
        #expect(diagnosis.verdict == .unreadable)
    }

    /// What the mode bits let group adm (the service account's) do: read the log, search the
    /// directories above it, list its own directory for the rotated files.
    @Test(
        arguments: [
            (0o644, 0o755, GroupReadAccess.readable),
            (0o600, 0o755, .fileClosed),
            (0o644, 0o700, .directoryClosed("")),
            (0o644, 0o711, .directoryUnlisted("")),
        ] as [(mode_t, mode_t, GroupReadAccess)])
    func theServiceAccountsGroupAccess(file: mode_t, directory: mode_t, expected: GroupReadAccess) throws {
        let dir = try TempDirectory()
        let logs = dir.path("logs")
        #expect(mkdir(logs, 0o755) == 0)
        let log = logs + "/access.log"
        try dir.write("logs/access.log", Self.lines(Self.shortLine, 2))
        let tree = try Self.conf(dir, [(log, "short")])
        #expect(chmod(log, file) == 0 && chmod(logs, directory) == 0)
        defer { chmod(logs, 0o755) }
        let check = FormatDiagnosis.examine(tree, lastLines: 20).checks.first
        switch expected {
        case .directoryClosed: #expect(check?.admCanRead == .directoryClosed(logs))
        case .directoryUnlisted: #expect(check?.admCanRead == .directoryUnlisted(logs))
        default: #expect(check?.admCanRead == expected)
        }
        // The reading account here is root: the mode bits are advice, not a read failure.
        #expect(check?.unreadable == nil && check?.parsed == 2)
    }

    /// Paths uaaudit cannot follow are skipped, each named, and a path twice is checked once.
    @Test func skippedLogs() throws {
        let dir = try TempDirectory()
        let a = try dir.write("a.log", Self.lines(Self.shortLine, 1))
        let tree = try Self.conf(
            dir, [(a, "short"), (a, "short"), ("syslog:server=unix:/dev/log", "short"), ("logs/x.log", "short")])
        let diagnosis = FormatDiagnosis.examine(tree, lastLines: 20)
        #expect(diagnosis.checks.map(\.log.path) == [a])
        #expect(diagnosis.skipped.map(\.path) == ["syslog:server=unix:/dev/log", "logs/x.log"])
    }
}
