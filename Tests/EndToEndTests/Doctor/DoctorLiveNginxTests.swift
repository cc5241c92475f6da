import Foundation
import Testing

/// A new operator's path on a real nginx: its stock `combined` log is exit 8 with the hint;
/// `doctor` on `nginx -T` gives the advice; following it gives the exact counts of the requests.
@Suite(.serialized) struct DoctorLiveNginxTests {
    static let ua = "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"

    /// `nginx -p DIR -c DIR/nginx.conf -T`: the configuration as nginx dumps it.
    static func dump(_ nginx: LiveNginx) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: nginx.binary)
        p.arguments = [
            "-p", nginx.dir.url.path, "-c", nginx.dir.path("nginx.conf"), "-e", nginx.dir.path("error.log"), "-T",
        ]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return Array(data)
    }

    static func totals(_ json: [UInt8]) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        return object?["totals"] as? [String: Any] ?? [:]
    }

    @Test(.requires(.nginx)) func stockCombinedIsExit8ThenDoctorsConfigCountsExactly() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the doctor live nginx test") else { return }
        // Debian's stock: no log_format, `access_log /var/log/nginx/access.log;` (combined).
        let nginx = try LiveNginx(binary: binary, logFormats: "", accessLogs: "access_log LOGS/access.log;")
        try nginx.send(120, ua: Self.ua)
        nginx.waitForLines(120, in: [nginx.log])

        let scan = try Tool.run(["scan", "-q", nginx.log])
        #expect(scan.status == 8)
        #expect(scan.stderr.contains("\(nginx.log): 120 of 120 lines do not match the log format 'ua_log'"))
        #expect(scan.stderr.contains("they parse as 'combined': use --format combined"))
        #expect(scan.stderr.contains("$http_user_agent failed at byte"))

        let state = nginx.dir.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let config = nginx.dir.path("uaaudit.json")
        let doctor = try Tool.run(
            ["doctor", "-", "--write-config", config, "--state-dir", state, "--prom", nginx.dir.path("uaaudit.prom")],
            stdin: try Self.dump(nginx))
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(doctor.out.contains("  \(nginx.log) (format combined, \(nginx.dir.path("nginx.conf")):"))
        #expect(doctor.out.contains("log: readable; last 20 lines: 20 parse as combined"))
        #expect(doctor.out.contains("5 * * * *  uaaudit  /usr/local/bin/uaaudit-cron.sh"))

        let run = try Tool.run(["run", "--json", "--config", config])
        #expect(run.status == 0, "\(run.stderr)")
        let totals = try Self.totals(run.stdout)
        #expect(totals["requests"] as? Int == 120)
        #expect(totals["malformed"] as? Int == 0)
        #expect((totals["classes"] as? [String: Int])?["urlsession"] == 120)
    }

    @Test(.requires(.nginx)) func aFormatWithoutTheUAGetsTheLinesToAddAndThenExactCounts() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the doctor live nginx test") else { return }
        let noUA = #"log_format short '$remote_addr [$time_local] "$request" $status';"#
        let nginx = try LiveNginx(binary: binary, logFormats: noUA, accessLogs: "access_log LOGS/access.log short;")
        try nginx.send(7, ua: Self.ua)
        nginx.waitForLines(7, in: [nginx.log])

        let doctor = try Tool.run(["doctor", "-"], stdin: try Self.dump(nginx))
        #expect(doctor.status == 8)
        #expect(doctor.out.contains("cannot be audited; it lacks $http_user_agent"))
        let lines = doctor.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let logFormat = try #require(lines.first { $0.hasPrefix("log_format ua_log '") })
        let accessLog = try #require(lines.first { $0.hasPrefix("access_log ") })
        #expect(accessLog == "access_log \(nginx.log) ua_log;")

        // Follow the advice: the printed lines in place of the old ones, then a reload.
        let conf = nginx.dir.path("nginx.conf")
        var text = try String(contentsOfFile: conf, encoding: .utf8)
        text = text.replacingOccurrences(of: noUA, with: logFormat)
        text = text.replacingOccurrences(of: "access_log \(nginx.log) short;", with: accessLog)
        try nginx.dir.write("nginx.conf", text)
        try nginx.control(["-s", "reload"])
        usleep(300_000)
        try nginx.send(150, ua: Self.ua)
        nginx.waitForLines(157, in: [nginx.log])

        let state = nginx.dir.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let config = nginx.dir.path("uaaudit.json")
        let again = try Tool.run(
            ["doctor", "-", "--write-config", config, "--state-dir", state, "--prom", nginx.dir.path("u.prom")],
            stdin: try Self.dump(nginx))
        #expect(again.status == 0, "\(again.out)\(again.stderr)")
        let run = try Tool.run(["run", "--json", "--config", config])
        #expect(run.status == 0, "\(run.stderr)")
        let totals = try Self.totals(run.stdout)
        #expect(totals["requests"] as? Int == 150)
        #expect(totals["malformed"] as? Int == 7)
    }
}
