import Foundation
import Testing

/// Issue 31: a webhook URL or secret file, or a config holding one inline, that every user may
/// read is said on stderr (even with -q), with the chmod; a closed one says nothing.
@Suite struct SecretExposureTests {
    static func log(_ dir: Scratch) throws -> String {
        try dir.write(
            "access.log",
            (0..<5).map { i in
                "10.0.0.1 - - [01/Dec/2026:13:0\(i):00 +0000] \"GET /p HTTP/1.1\" 200 5 \"-\" \"\(Lines.urlsession)\" "
                    + "rt=0.001 uct=\"0.000\" uht=\"0.001\" urt=\"0.001\"\n"
            }.joined())
    }

    @Test func aURLFileOthersMayReadIsSaid() throws {
        let dir = try Scratch()
        let log = try Self.log(dir)
        let url = try dir.write("wecom.url", "http://127.0.0.1:9/hook\n")
        #expect(chmod(url, 0o644) == 0)
        let words = ["scan", "-q", "--webhook-url-file", url, "--webhook-kind", "generic", log]
        let open = try Tool.run(words)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr
                == "uaaudit: \(url) holds a webhook URL and every user of this machine may read it (mode 0644): "
                + "chmod 640 \(url) (group adm lets the uaaudit account read it), or 600\n")
        #expect(chmod(url, 0o640) == 0)
        #expect(try Tool.run(words).stderr == "")
    }

    @Test func aConfigWithAnInlineURLOthersMayReadIsSaidOnEveryRun() throws {
        let dir = try Scratch()
        let log = try Self.log(dir)
        let config = try dir.write(
            "uaaudit.json",
            """
            {"version": 1, "logs": ["\(log)"], "state": "\(dir.path("s.json"))", "report": "\(dir.path("r.json"))",
             "alerts": [{"kind": "generic", "url": "http://127.0.0.1:9/hook?token=s3cr3t"}]}
            """)
        #expect(chmod(config, 0o644) == 0)
        let words = ["run", "-q", "--config", config, "--now", "2026-12-01T13:30:00Z"]
        let open = try Tool.run(words)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr
                == "uaaudit: \(config) holds a webhook URL or secret inline and every user of this machine may read "
                + "it (mode 0644): chmod 640 \(config) (group adm lets the uaaudit account read it), or 600\n")
        #expect(!open.stderr.contains("s3cr3t"))
        #expect(chmod(config, 0o600) == 0)
        #expect(try Tool.run(words).stderr == "")
    }

    /// `state show` escapes a control byte in a log path (a directory another user named).
    @Test func stateShowEscapesTheLogPaths() throws {
        let dir = try Scratch()
        let sub = dir.path("logs\u{1b}[31m")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let log = sub + "/access.log"
        try String(contentsOfFile: try Self.log(dir), encoding: .utf8).write(
            toFile: log, atomically: true, encoding: .utf8)
        let state = dir.path("s.json")
        let run = try Tool.run([
            "run", "-q", "--state", state, "--out", dir.path("r.json"), "--now", "2026-12-01T13:30:00Z", log,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try Tool.run(["state", "show", "--state", state])
        #expect(shown.status == 0)
        #expect(!shown.out.contains("\u{1b}"))
        #expect(shown.out.contains("logs\\x1B[31m/access.log"))
    }

    /// `alert test` warns as scan and run do.
    @Test func alertTestSaysSoToo() throws {
        let dir = try Scratch()
        let url = try dir.write("hook.url", "http://127.0.0.1:9/hook\n")
        #expect(chmod(url, 0o644) == 0)
        let result = try Tool.run([
            "alert", "test", "--webhook-url-file", url, "--webhook-kind", "generic", "--webhook-timeout", "1",
            "--webhook-retries", "0",
        ])
        #expect(
            result.stderr.hasPrefix(
                "uaaudit: \(url) holds a webhook URL and every user of this machine may read it (mode 0644): "))
    }
}
