import Foundation
import Testing

/// Follows cron/README.md's install block as it is written, under a temporary PREFIX, then
/// runs the job the way cron does (the wrapper, as the service account) twice: every file the
/// config names exists, the account can write what it must, and each run logs a heartbeat.
@Suite struct CronInstallTests {
    static func shell(_ script: String, environment: [String: String], directory: URL = Tool.repoRoot) throws -> (
        Int32, String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-eu", "-c", script]
        p.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The lines between `<!-- install:begin -->` and `<!-- install:end -->`, without the fence.
    static func installBlock() throws -> String {
        let readme = try String(contentsOf: Tool.repoRoot.appendingPathComponent("cron/README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- install:begin -->\n```sh\n"))
        let end = try #require(readme.range(of: "```\n<!-- install:end -->"))
        return String(readme[begin.upperBound..<end.lowerBound])
    }

    @Test func theInstallStepsWorkAsWrittenAndTheJobLogsAHeartbeat() throws {
        // The steps make a system user and change owners: they are root's, as the README says.
        guard getuid() == 0 else {
            print("\n*** NOT ROOT: the cron install test is SKIPPED (cron/README's steps run as root) ***\n")
            return
        }
        let dir = try Scratch()
        let prefix = dir.path("root")
        // The account must reach files under the temporary directory, as it would under /.
        _ = try Self.shell("chmod 755 \"$D\"", environment: ["D": dir.url.path])
        try FileManager.default.createDirectory(atPath: prefix + "/var/log/nginx", withIntermediateDirectories: true)
        // nginx's log, as Debian creates it: www-data:adm 0640. 130 requests in ua_log, two hours ago (their hour is closed by the clock).
        let hourAgo = Date().addingTimeInterval(-7200)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss Z"
        let time = formatter.string(from: hourAgo)
        let log = prefix + "/var/log/nginx/access.log"
        try Data(String(repeating: Lines.uaLog(time: time, ua: Lines.urlsession) + "\n", count: 130).utf8).write(
            to: URL(fileURLWithPath: log))
        _ = try Self.shell("chgrp adm \"$L\" && chmod 640 \"$L\"", environment: ["L": log])

        let binDir = Tool.binary.deletingLastPathComponent().path
        let (status, output) = try Self.shell(
            try Self.installBlock(), environment: ["PREFIX": prefix, "BUILD": binDir])
        #expect(status == 0, "\(output)")
        #expect(
            output.contains(
                "uaaudit: run: lines 130, malformed 0, hours closed 1, alerts sent 0, alerts pending 0, gaps 0, exit 0")
        )
        for file in [
            "/usr/local/bin/uaaudit", "/usr/local/bin/uaaudit-cron.sh", "/etc/uaaudit/uaaudit.json",
            "/etc/uaaudit/rules.json", "/etc/cron.d/uaaudit", "/var/lib/uaaudit/state.json",
            "/var/lib/uaaudit/report.json", "/var/lib/prometheus/node-exporter/uaaudit.prom",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix + file), "\(file)")
        }
        let crontab = try String(contentsOfFile: prefix + "/etc/cron.d/uaaudit", encoding: .utf8)
        let job = try #require(crontab.split(separator: "\n").first { $0.hasPrefix("5 * * * *") })
        #expect(job == "5 * * * *  uaaudit  \(prefix)/usr/local/bin/uaaudit-cron.sh")

        // cron's job, as the account, twice; the second reads 4 new lines.
        let wrapper = prefix + "/usr/local/bin/uaaudit-cron.sh"
        let env = [
            "W": wrapper, "UAAUDIT_CONFIG": prefix + "/etc/uaaudit/uaaudit.json",
            "UAAUDIT_LOG": prefix + "/var/log/uaaudit/uaaudit.log",
        ]
        let asAccount =
            "runuser -u uaaudit -- env UAAUDIT_CONFIG=\"$UAAUDIT_CONFIG\" UAAUDIT_LOG=\"$UAAUDIT_LOG\" \"$W\""
        let first = try Self.shell(asAccount, environment: env)
        #expect(first.0 == 0, "\(first.1)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(String(repeating: Lines.uaLog(time: time, ua: Lines.cfnetwork) + "\n", count: 4).utf8))
        try handle.close()
        let second = try Self.shell(asAccount, environment: env)
        #expect(second.0 == 0, "\(second.1)")
        // Nothing but errors reaches cron's mail.
        #expect(first.1 == "" && second.1 == "")

        let heartbeats = try String(contentsOfFile: prefix + "/var/log/uaaudit/uaaudit.log", encoding: .utf8)
            .split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(
            heartbeats == [
                "uaaudit: run: lines 0, malformed 0, hours closed 0, alerts sent 0, alerts pending 0, gaps 0, exit 0",
                // The 4 lines are late inconsistent ones for the hour the install's run closed
                // healthy: 4 of 134 take it over the threshold, and it alerts late (pending: the
                // installed config has no channel yet).
                "uaaudit: run: lines 4, malformed 0, hours closed 0, alerts sent 0, alerts pending 1, gaps 0, exit 0",
            ])
        // A run that stops before its heartbeat (here a config that is not there) still leaves
        // its exit status in the log, after its message, and both reach cron's mail.
        var broken = env
        broken["UAAUDIT_CONFIG"] = prefix + "/etc/uaaudit/missing.json"
        let third = try Self.shell(asAccount, environment: broken)
        #expect(third.0 == 2)
        let quiet = "uaaudit: run: no heartbeat: exit 2 (see the lines above; uaaudit --help lists the exit statuses)"
        let logged = try String(contentsOfFile: prefix + "/var/log/uaaudit/uaaudit.log", encoding: .utf8)
            .split(separator: "\n").suffix(2).map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(
            logged == [
                "uaaudit: config \(prefix)/etc/uaaudit/missing.json: cannot read: No such file or directory", quiet,
            ])
        #expect(third.1 == logged.joined(separator: "\n") + "\n")
        let metrics = try String(
            contentsOfFile: prefix + "/var/lib/prometheus/node-exporter/uaaudit.prom", encoding: .utf8)
        #expect(metrics.contains("uaaudit_requests_total{class=\"urlsession\"} 130\n"))
    }
}
