import Foundation
import Testing

/// Issue 32: a new operator's app, named in no rule of the project, on a real nginx's stock
/// `combined` log. `doctor` finds it in the traffic and writes config and rules; `run` on that
/// config classes every shape of it right. Two apps of a size: listed, nothing written.
@Suite(.serialized) struct DoctorAppTests {
    /// The app's shapes: its own UA (URLSession), URLSession's default (the app's bundle and its
    /// widget's), its WKWebView with its token after the engine; and people's Safari.
    static let custom = "Parcelo/4.1.0 (iPhone; iOS 17.4; Scale/3.00)"
    static let cfnetwork = "Parcelo/410 CFNetwork/1494.0.7 Darwin/23.4.0"
    static let widget = "Parcelo WidgetExtension/410 CFNetwork/1494.0.7 Darwin/23.4.0"
    static let webview =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Parcelo/4.1.0"
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1"

    static func classes(_ json: [UInt8]) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        let totals = object?["totals"] as? [String: Any]
        return (totals?["classes"] as? [String: Int] ?? [:]).filter { $0.value > 0 }
    }

    @Test(.requires(.nginx)) func doctorFindsTheAppAndRunClassesItsTrafficRight() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the doctor app test") else { return }
        let nginx = try LiveNginx(binary: binary, logFormats: "", accessLogs: "access_log LOGS/access.log;")
        try nginx.send(40, ua: Self.custom)
        try nginx.send(15, ua: Self.cfnetwork)
        try nginx.send(5, ua: Self.widget)
        try nginx.send(10, ua: Self.webview)
        try nginx.send(8, ua: Self.safari)
        nginx.waitForLines(78, in: [nginx.log])

        // The example rules on this traffic: said on stderr with the command, even under -q.
        let scan = try Tool.run(["scan", "-q", "--format", "combined", nginx.log])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.isEmpty)
        #expect(
            scan.stderr.replacingOccurrences(of: "\n", with: " ")
                == "uaaudit: the rules in use are the built-in example rules, written for an "
                + "app called MyApp; the largest app in this traffic, Parcelo (76.9% of requests: "
                + "custom, CFNetwork default), is classed other and not audited. Write its rules "
                + "and give them with --rules (or \"rules\" in the config):     "
                + "uaaudit rules init --app Parcelo --out rules.json ")

        let state = nginx.dir.path("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let etc = nginx.dir.path("etc")
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        let config = etc + "/uaaudit.json"
        let doctor = try Tool.run(
            ["doctor", "-", "--write-config", config, "--state-dir", state, "--prom", nginx.dir.path("u.prom")],
            stdin: try DoctorLiveNginxTests.dump(nginx))
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(doctor.out.contains("apps in the traffic (last 78 parsed lines of \(nginx.log)):\n"))
        #expect(doctor.out.contains("  Parcelo 89.7% of requests, 1 client: custom, CFNetwork default, webview\n"))
        #expect(doctor.out.contains("    uaaudit rules init --app Parcelo --out \(etc)/rules.json\n"))
        #expect(doctor.out.contains("  \"rules\" : \"\(etc)/rules.json\",\n"))
        #expect(doctor.stderr.contains("uaaudit: wrote \(etc)/rules.json (rules for Parcelo)\n"))
        let written = try String(contentsOfFile: config, encoding: .utf8)
        #expect(written.contains("\"rules\" : \"\(etc)/rules.json\""))
        // What doctor wrote is what rules init writes for the app.
        let initRules = try Tool.run(["rules", "init", "--app", "Parcelo"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: etc + "/rules.json")) == Data(initRules.stdout))

        let run = try Tool.run(["run", "--json", "--config", config])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("example rules"))
        #expect(
            try Self.classes(run.stdout) == ["urlsession": 40, "inconsistent": 20, "webview": 10, "browser": 8])

        // Run again: nothing written over, the rules and the config untouched (exit 2).
        let again = try Tool.run(
            ["doctor", "-", "--write-config", config + ".new", "--state-dir", state],
            stdin: try DoctorLiveNginxTests.dump(nginx))
        #expect(again.status == 2)
        #expect(again.stderr.contains("\(etc)/rules.json exists"))
        #expect(!FileManager.default.fileExists(atPath: config + ".new"))
    }

    @Test(.requires(.nginx)) func twoAppsOfASizeAreListedAndNoRulesAreWritten() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the doctor app test") else { return }
        let nginx = try LiveNginx(binary: binary, logFormats: "", accessLogs: "access_log LOGS/access.log;")
        try nginx.send(30, ua: Self.custom)
        try nginx.send(20, ua: "Lendly/2.0 (iPhone; iOS 17.4)")
        nginx.waitForLines(50, in: [nginx.log])
        let config = nginx.dir.path("uaaudit.json")
        let doctor = try Tool.run(
            ["doctor", "-", "--write-config", config, "--state-dir", nginx.dir.path("state")],
            stdin: try DoctorLiveNginxTests.dump(nginx))
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(
            doctor.out.contains(
                "  Parcelo 60% of requests, 1 client: custom\n  Lendly 40% of requests, 1 client: custom\n"))
        #expect(doctor.out.contains("No app clearly dominates"))
        #expect(doctor.out.contains("    uaaudit doctor --app Parcelo …   (or another name above)\n"))
        #expect(!FileManager.default.fileExists(atPath: nginx.dir.path("rules.json")))
        #expect(!(try String(contentsOfFile: config, encoding: .utf8)).contains("\"rules\""))

        // Naming the app settles it: its rules are written and the config names them.
        let named = nginx.dir.path("named")
        try FileManager.default.createDirectory(atPath: named, withIntermediateDirectories: true)
        let chosen = try Tool.run(
            ["doctor", "-", "--app", "Lendly", "--write-config", named + "/uaaudit.json", "--state-dir", named],
            stdin: try DoctorLiveNginxTests.dump(nginx))
        #expect(chosen.status == 0, "\(chosen.stderr)")
        // The verdict is wrapped to 80 columns.
        #expect(
            chosen.out.replacingOccurrences(of: "\n", with: " ").contains(
                "Lendly (--app): its rules (uaaudit rules init) go in \(named)/rules.json"))
        #expect(FileManager.default.fileExists(atPath: named + "/rules.json"))
    }

    /// A config given by a relative path names its rules by an absolute one (cron starts run in
    /// another directory); a config named rules.json would be overwritten by its rules: exit 2.
    @Test func theRulesPathIsAbsoluteAndNeverTheConfigsOwn() throws {
        let dir = try Scratch()
        let lines = (0..<40).map { i in
            "10.0.0.\(i) - - [01/Dec/2026:13:05:00 +0000] \"GET /p HTTP/1.1\" 200 5 \"-\" \"\(Self.custom)\"\n"
        }
        let log = try dir.write("access.log", lines.joined())
        let nginx = try dir.write("nginx.conf", "events {}\nhttp { access_log \(log); }\n")
        try FileManager.default.createDirectory(atPath: dir.path("etc"), withIntermediateDirectories: true)
        let same = try Tool.run(
            ["doctor", "--nginx-conf", nginx, "--write-config", "etc/rules.json"], directory: dir.url)
        #expect(same.status == 2)
        #expect(
            same.stderr
                == "uaaudit: --write-config etc/rules.json: doctor writes the app's rules to rules.json beside the "
                + "config; give the config another name, such as uaaudit.json (nothing was written)\n")
        let relative = try Tool.run(
            ["doctor", "--nginx-conf", nginx, "--write-config", "etc/uaaudit.json"], directory: dir.url)
        #expect(relative.status == 0, "\(relative.stderr)")
        let config = try String(contentsOfFile: dir.path("etc/uaaudit.json"), encoding: .utf8)
        // Scratch directories may sit behind a link (/tmp): the path is the working directory's.
        let cwd = try #require(relative.out.range(of: "  \"rules\" : \"")).upperBound
        let named = String(relative.out[cwd...].prefix { $0 != "\"" })
        #expect(named.hasPrefix("/") && named.hasSuffix("/etc/rules.json"))
        #expect(config.contains("\"rules\" : \"\(named)\""))
        #expect(FileManager.default.fileExists(atPath: named))
    }
}
