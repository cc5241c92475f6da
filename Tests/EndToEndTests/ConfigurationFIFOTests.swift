import Foundation
import Testing

/// Issue 31, CONTRACTS ("Files, as root"): configuration inputs are regular files. A FIFO (or
/// /proc/kmsg, which waits for the kernel) as nginx.conf or one of its includes, the rules, the
/// config, a URL or secret file, or a report given to merge or explain is exit 2 naming it,
/// at once: each command runs under `timeout 20`, so a regression fails (124), never hangs.
@Suite struct ConfigurationFIFOTests {
    static let log = Tool.repoRoot.appendingPathComponent("SampleLogs/ua_log.log").path

    static func run(_ words: [String]) throws -> Tool.Result {
        try Tool.run(words, launcher: ["/usr/bin/timeout", "20"])
    }

    @Test func everyConfigurationInputThatIsAFIFOIsExit2NamingIt() throws {
        let dir = try Scratch()
        let fifo = dir.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let include = try dir.write("include.conf", "events {}\nhttp { include \(fifo); }\n")
        let cases: [(words: [String], message: String)] = [
            (["scan", "-q", "--rules", fifo, Self.log], "uaaudit: cannot read rules file \(fifo): is a FIFO, "),
            (["run", "-q", "--config", fifo], "uaaudit: config \(fifo): cannot read: is a FIFO, "),
            (
                ["scan", "-q", "--nginx-conf", fifo, "--format", "main", Self.log],
                "uaaudit: cannot read nginx config \(fifo): is a FIFO, "
            ),
            (["doctor", "--nginx-conf", include], "uaaudit: cannot read nginx config \(fifo): is a FIFO, "),
            (["rules", "test", fifo], "uaaudit: cannot read rules file \(fifo): is a FIFO, "),
            (
                [
                    "run", "-q", "--state", dir.path("s.json"), "--out", dir.path("r.json"), "--webhook-url-file", fifo,
                    Self.log,
                ],
                "uaaudit: --webhook: cannot read the webhook URL from \(fifo): is a FIFO, "
            ),
            (
                ["merge", fifo],
                "uaaudit: \(fifo) is a FIFO, not a regular file: merge reads reports from regular files"
            ),
            (
                ["explain", "2026-11-29T17", fifo],
                "uaaudit: \(fifo) is a FIFO, not a regular file: explain reads a report or logs from regular files"
            ),
        ]
        for (words, message) in cases {
            let result = try Self.run(words)
            #expect(result.status == 2, "\(words)")
            #expect(result.stderr.hasPrefix(message), "\(words): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))
    }

    /// /proc/kmsg is a regular file whose read waits for the kernel's next message: read
    /// without blocking, it is an error at once.
    @Test(.requires(.root)) func procKmsgAsTheNginxConfigDoesNotWait() throws {
        let result = try Self.run(["doctor", "--nginx-conf", "/proc/kmsg"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("uaaudit: cannot read nginx config /proc/kmsg: "))
    }

    /// /proc/kmsg as a log: read without blocking, a read error (exit 3), never a hang.
    @Test(.requires(.root)) func procKmsgAsALogIsAReadErrorNotAHang() throws {
        for words in [["scan", "-q", "/proc/kmsg"], ["explain", "2026-11-29T10", "/proc/kmsg"]] {
            let result = try Self.run(words)
            #expect(result.status == 3, "\(words)")
            #expect(result.stderr == "uaaudit: /proc/kmsg: read failed: Resource temporarily unavailable\n", "\(words)")
        }
    }
}
