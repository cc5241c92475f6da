import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `uaaudit doctor --nginx-conf` on configurations laid out as Debian does: includes of
/// `conf.d/*.conf`, several servers and logs, `access_log off`, a format without the UA,
/// `escape=json`, and an include cycle.
@Suite struct DoctorConfigTests {
    static let combinedLine =
        #"127.0.0.1 - - [01/Dec/2026:13:05:00 +0000] "GET /a HTTP/1.1" 200 2 "-" "MyApp/1.0 (iPhone; iOS 17_4)""#
    static let jsonLine = #"{"t":"2026-12-01T13:05:00+00:00","ua":"MyApp/1.0 \"q\""}"#

    /// A main file, two conf.d files (read in sorted order), two servers, four logs.
    static func layout(_ dir: Scratch) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.path("conf.d"), withIntermediateDirectories: true)
        try dir.write(
            "nginx.conf",
            """
            events {}
            http {
                include conf.d/*.conf;
                access_log \(dir.path("main.log"));
            }
            """)
        try dir.write(
            "conf.d/10-formats.conf",
            #"""
            log_format short '$remote_addr [$time_local] "$request" $status';
            log_format js escape=json '{"t":"$time_iso8601","ua":"$http_user_agent"}';
            """#)
        try dir.write(
            "conf.d/20-sites.conf",
            """
            server { listen 8080; access_log \(dir.path("api.log")) js buffer=32k; access_log off; }
            server { listen 8081; access_log \(dir.path("short.log")) short; access_log syslog:server=127.0.0.1 js; }
            server { listen 8082; access_log logs/relative.log; }
            server { listen 8083; }
            """)
        try dir.write("main.log", String(repeating: combinedLine + "\n", count: 30))
        try dir.write("api.log", String(repeating: jsonLine + "\n", count: 5))
        try dir.write("short.log", "127.0.0.1 [01/Dec/2026:13:05:00 +0000] \"GET / HTTP/1.1\" 200\n")
        return dir.path("nginx.conf")
    }

    /// The hourly-job advice names the package's files when its cron wrapper is installed,
    /// and the source tree's cron/ otherwise.
    @Test(arguments: [true, false])
    func theHourlyJobAdviceFollowsTheInstall(packaged: Bool) throws {
        let dir = try Scratch()
        let conf = try Self.layout(dir)
        let wrapper = try dir.write("uaaudit-cron.sh", "#!/bin/sh\n")
        if packaged { chmod(wrapper, 0o755) }
        let state = try Scratch()
        let result = try Tool.run(
            ["doctor", "--nginx-conf", conf, "--state-dir", state.url.path, "--prom", state.path("u.prom")],
            environment: ["UAAUDIT_PACKAGED_WRAPPER": packaged ? wrapper : dir.path("absent")])
        #expect(result.status == 0, "\(result.stderr)")
        let advice = result.out[(result.out.range(of: "Then the hourly job")?.lowerBound ?? result.out.endIndex)...]
        if packaged {
            #expect(advice.contains("see /usr/share/doc/uaaudit/README.Debian"))
            #expect(advice.contains("systemctl enable --now uaaudit.timer"))
            #expect(advice.contains("/usr/lib/uaaudit/uaaudit-cron.sh"))
            for sourcePath in ["/usr/local/bin", "cron/README.md", "cron/uaaudit.service"] {
                #expect(!advice.contains(sourcePath), "\(sourcePath) in \(advice)")
            }
        } else {
            #expect(advice.contains("see cron/README.md"))
            #expect(advice.contains("5 * * * *  uaaudit  /usr/local/bin/uaaudit-cron.sh"))
            #expect(advice.contains("cron/uaaudit.service"))
        }
    }

    @Test func listsEveryLogFollowingIncludes() throws {
        let dir = try Scratch()
        let conf = try Self.layout(dir)
        let config = dir.path("uaaudit.json")
        let state = try Scratch()
        let result = try Tool.run(
            [
                "doctor", "--nginx-conf", conf, "--write-config", config, "--state-dir", state.url.path, "--prom",
                state.path("u.prom"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.out
        #expect(out.contains("nginx configuration: \(conf) (3 files read)"))
        #expect(
            out.contains("  short (\(dir.path("conf.d/10-formats.conf")):1): cannot be audited; lacks $http_user_agent")
        )
        #expect(out.contains("  js (\(dir.path("conf.d/10-formats.conf")):2) escape=json: UA and time (audit works)"))
        #expect(out.contains("  combined (predefined by nginx): UA, time, path, status, client key $remote_addr"))
        // In the order nginx reads them: the included servers come first.
        let api = try #require(out.range(of: "  \(dir.path("api.log")) (format js"))
        let short = try #require(out.range(of: "  \(dir.path("short.log")) (format short"))
        let main = try #require(out.range(of: "  \(dir.path("main.log")) (format combined, \(conf):4)"))
        #expect(api.lowerBound < short.lowerBound && short.lowerBound < main.lowerBound)
        #expect(out.contains("log: readable; last 5 lines: 5 parse as js"))
        #expect(out.contains("log: readable; last 20 lines: 20 parse as combined"))
        #expect(out.contains("  access_log off (\(dir.path("conf.d/20-sites.conf")):1): skipped"))
        #expect(
            out.contains("  syslog:server=127.0.0.1: not a plain file (\(dir.path("conf.d/20-sites.conf")):2): skipped")
        )
        #expect(
            out.contains(
                "  logs/relative.log: relative to nginx's prefix (nginx -V: --prefix); give uaaudit the absolute path "
                    + "(\(dir.path("conf.d/20-sites.conf")):3): skipped"))
        // One log in js, one in combined: the first group of the largest size wins; the other is named.
        #expect(out.contains("(\(dir.path("main.log")) is in format combined: it needs a config of its own)"))
        let written =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        #expect(written?["logs"] as? [String] == [dir.path("api.log")])
        #expect(
            written?["format"] as? [String: String]
                == ["name": "js", "string": #"{"t":"$time_iso8601","ua":"$http_user_agent"}"#, "escape": "json"])
        #expect(written?["state"] as? String == state.path("state.json"))
        #expect(written?["prom"] as? String == state.path("u.prom"))
        #expect((written?["insight"] as? [String: String])?["client_key"] == "none")

        // The written config runs: the JSON log's 5 requests, the escaped quote undone. The clock
        // is the next day's (the hour within history_hours), not today's.
        let run = try Tool.run(["run", "--json", "--config", config, "--now", "2026-12-02T09:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any]
        #expect((report?["totals"] as? [String: Any])?["requests"] as? Int == 5)
    }

    /// A level's access_log lines replace the ones it would inherit: with every server
    /// logging on its own, the http block's log is never written, and not suggested.
    @Test func anHttpLogEveryServerReplacesIsSkipped() throws {
        let dir = try Scratch()
        try dir.write(
            "nginx.conf",
            """
            events {}
            http {
                access_log \(dir.path("main.log"));
                server { listen 8080; access_log \(dir.path("site.log")); }
            }
            """)
        try dir.write("main.log", "")
        try dir.write("site.log", String(repeating: Self.combinedLine + "\n", count: 3))
        let state = try Scratch()
        let result = try Tool.run(
            [
                "doctor", "--nginx-conf", dir.path("nginx.conf"), "--state-dir", state.url.path, "--prom",
                state.path("u.prom"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.out.contains(
                "  \(dir.path("main.log")): never written (each server block has an access_log of its own, which replaces it) (\(dir.path("nginx.conf")):3): skipped"
            ), "\(result.out)")
        #expect(result.out.contains("\"logs\" : [\n    \"\(dir.path("site.log"))\"\n  ]"), "\(result.out)")
    }

    @Test func noFittingFormatPrintsTheLinesToAdd() throws {
        let dir = try Scratch()
        try dir.write(
            "nginx.conf",
            """
            http {
                log_format short '$remote_addr [$time_local] "$request" $status';
                server { access_log \(dir.path("a.log")) short; }
                server { access_log \(dir.path("b.log")) short; }
            }
            """)
        let result = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(result.status == 8)
        #expect(result.out.contains("No access_log has a format with the UA and a time. Add to nginx's http block:"))
        #expect(
            result.out.contains(
                "    log_format ua_log '$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                    + "\"$http_referer\" \"$http_user_agent\" rt=$request_time uct=\"$upstream_connect_time\" "
                    + "uht=\"$upstream_header_time\" urt=\"$upstream_response_time\"';\n"))
        #expect(
            result.out.contains(
                "    access_log \(dir.path("a.log")) ua_log;\n    access_log \(dir.path("b.log")) ua_log;\n"))
        #expect(result.out.contains("log: cannot read it: No such file or directory"))
    }

    @Test func anIncludeCycleIsRejected() throws {
        let dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.path("conf.d"), withIntermediateDirectories: true)
        try dir.write("nginx.conf", "http { include conf.d/*.conf; }\n")
        try dir.write("conf.d/loop.conf", "include nginx.conf;\n")
        let result = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(result.status == 2)
        let main = try #require(Optional(URL(fileURLWithPath: dir.path("nginx.conf")).resolvingSymlinksInPath().path))
        #expect(result.stderr.contains("include cycle: \(main) includes"))
        #expect(result.stderr.contains("conf.d/loop.conf includes \(main)"))
    }

    @Test func aLogInTheWrongFormatIsExit8() throws {
        let dir = try Scratch()
        try dir.write(
            "nginx.conf", "http { log_format ua_log '\(Self.uaLog)'; access_log \(dir.path("a.log")) ua_log; }\n")
        try dir.write("a.log", String(repeating: Self.combinedLine + "\n", count: 3))
        let result = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(result.status == 8)
        #expect(result.out.contains("log: readable; last 3 lines: 0 parse as ua_log"))
        #expect(result.out.contains("first that does not: $http_user_agent failed at byte"))
    }

    static let uaLog =
        #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "#
        + #""$http_user_agent" rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" "#
        + #"urt="$upstream_response_time""#

    @Test func readmeShowsTheLineDoctorPrints() throws {
        let readme = try String(contentsOf: Tool.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("    log_format ua_log '\(Self.uaLog)';\n"))
        // The quick start sets nginx up, then lets doctor find the app, before it scans anything.
        let nginxSide = try #require(readme.range(of: "**1. The nginx side first.**"))
        let doctor = try #require(readme.range(of: "    nginx -T | uaaudit doctor - --write-config /etc/uaaudit/uaaudit.json"))
        let scan = try #require(readme.range(of: "    uaaudit scan --rules /etc/uaaudit/rules.json /var/log/nginx/access.log"))
        #expect(nginxSide.lowerBound < doctor.lowerBound)
        #expect(doctor.lowerBound < scan.lowerBound)
        let doc = try String(contentsOf: Tool.repoRoot.appendingPathComponent("docs/nginx.md"), encoding: .utf8)
        #expect(doc.contains("    log_format ua_log '\(Self.uaLog)';\n"))
    }

    @Test func aLogTheAccountCannotReadIsNamed() throws {
        let dir = try Scratch()
        try dir.write("nginx.conf", "http { access_log \(dir.path("a.log")); }\n")
        let log = try dir.write("a.log", Self.combinedLine + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: log)
        let result = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.out.contains("the uaaudit account (group adm) cannot read it: make it group adm, mode 0640"))
    }

    /// A readable file in a directory group adm cannot search is as unreadable to the account.
    @Test func aDirectoryTheAccountCannotSearchIsNamed() throws {
        let dir = try Scratch()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        try FileManager.default.createDirectory(atPath: dir.path("nginx"), withIntermediateDirectories: true)
        try dir.write("nginx.conf", "http { access_log \(dir.path("nginx/a.log")); }\n")
        let log = try dir.write("nginx/a.log", Self.combinedLine + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: log)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: dir.path("nginx"))
        let result = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.out.contains(
                "the uaaudit account (group adm) cannot reach it: \(dir.path("nginx")) does not let group adm search it"
            ))
        // Searchable but not listable: run could not find the rotated files there.
        try FileManager.default.setAttributes([.posixPermissions: 0o751], ofItemAtPath: dir.path("nginx"))
        let unlisted = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(
            unlisted.out.contains(
                "the uaaudit account (group adm) cannot list \(dir.path("nginx")), where run finds its rotated files (chmod o+r, or group adm with g+r)"
            ), "\(unlisted.out)")
        // Opened up to all, the warning goes.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path("nginx"))
        let open = try Tool.run(["doctor", "--nginx-conf", dir.path("nginx.conf")])
        #expect(!open.out.contains("the uaaudit account"), "\(open.out)")
    }

    /// An access_log that is a FIFO is refused at once (opening it used to wait for a writer
    /// forever), and --write-config never replaces an existing file (a log, nginx.conf, the
    /// config in use): both found by a reviewer.
    @Test func aFIFOLogDoesNotHangAndAnExistingFileIsNotOverwritten() throws {
        let dir = try Scratch()
        #expect(mkfifo(dir.path("fifo.log"), 0o600) == 0)
        let conf = try dir.write("nginx.conf", "events {}\nhttp { access_log \(dir.path("fifo.log")); }\n")
        let started = Date()
        let fifo = try Tool.run(["doctor", "--nginx-conf", conf])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(fifo.status == 3, "\(fifo.out) \(fifo.stderr)")

        let layout = try Self.layout(dir)
        for target in [dir.path("main.log"), layout] {
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            let refused = try Tool.run(["doctor", "--nginx-conf", layout, "--write-config", target])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("the file exists and doctor does not overwrite files"), "\(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        }
    }

    /// Debian's usual layout: `access_log …/access.log` stays in `http {}` and the site logs
    /// to its own file with ua_log; nginx then writes only the site's. The config doctor
    /// suggests names the log with lines, not the empty one first in the file.
    @Test func theSuggestedLogIsOneNginxWrites() throws {
        let dir = try Scratch()
        let line = Lines.uaLog(ua: Lines.urlsession)
        let conf = try dir.write(
            "nginx.conf",
            """
            events {}
            http {
                log_format ua_log '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time"';
                access_log \(dir.path("access.log"));
                server { listen 8080; access_log \(dir.path("mysite.log")) ua_log; }
            }
            """)
        try dir.write("access.log", "")
        try dir.write("mysite.log", String(repeating: line + "\n", count: 30))
        let config = dir.path("u.json")
        let result = try Tool.run(["doctor", "--nginx-conf", conf, "--write-config", config])
        #expect(result.status == 0, "\(result.out) \(result.stderr)")
        let written =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        #expect(written?["logs"] as? [String] == [dir.path("mysite.log")])
    }
}
