import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `doctor`'s whole diagnosis: the format chosen, the app found in the chosen logs' traffic,
/// nginx's UA rules tried on its UAs, and the config it advises.
@Suite struct DoctorDiagnosisTests {
    /// An nginx.conf with the built-in ua_log, one access_log in it, refusing curl's UAs.
    static func setUp(_ dir: TempDirectory, lines: [String]) throws -> (tree: NginxConfigTree, log: String) {
        let log = try dir.write("access.log", Array(lines.map { $0 + "\n" }.joined().utf8))
        let conf = """
            http {
                log_format ua_log '\(BuiltinFormats.uaLog)';
                access_log \(log) ua_log;
                server {
                    if ($http_user_agent ~* curl) { return 403; }
                }
            }

            """
        return (try NginxSource.file(try dir.write("nginx.conf", Array(conf.utf8))).load(), log)
    }

    static func appTraffic() -> [String] {
        Array(repeating: LogLines.uaLog(ua: LogLines.urlsession), count: 30)
            + [LogLines.uaLog(status: "403", ua: LogLines.curl)]
    }

    @Test func theDominantAppIsFoundAndItsRulesTriedAgainstNginxs() throws {
        let dir = try TempDirectory()
        let (tree, log) = try Self.setUp(dir, lines: Self.appTraffic())
        let diagnosis = DoctorDiagnosis.diagnose(
            tree, lastLines: 20, sampleLines: 5000, app: nil, bundles: [], rulesPath: "/etc/uaaudit/rules.json",
            givenRules: nil)
        #expect(diagnosis.formats.verdict == .fine)
        #expect(diagnosis.formats.chosen?.logs == [log])
        #expect(diagnosis.apps?.sample.reads == [AppSample.Read(path: log, lines: 31, parsed: 31)])
        #expect(diagnosis.apps?.chosen?.name == "MyApp")
        #expect(diagnosis.apps?.named == false)
        #expect(diagnosis.apps?.rulesFile != nil)
        #expect(diagnosis.nginxRules.rulesSource == "the rules doctor writes")
        #expect(diagnosis.nginxRules.triedUAs)
        #expect(diagnosis.nginxRules.linesRead == 31)
        #expect(diagnosis.nginxRules.audit.uaConditions == 1)
    }

    @Test func withoutASampleOrAnAppNoRulesAreTried() throws {
        let dir = try TempDirectory()
        let (tree, _) = try Self.setUp(dir, lines: Self.appTraffic())
        let diagnosis = DoctorDiagnosis.diagnose(
            tree, lastLines: 20, sampleLines: 0, app: nil, bundles: [], rulesPath: "/r.json", givenRules: nil)
        #expect(diagnosis.apps == nil)
        #expect(!diagnosis.nginxRules.triedUAs)
        #expect(diagnosis.nginxRules.tested.isEmpty)
        #expect(diagnosis.runConfig(stateDir: "/s", prom: "/p.prom", givenRules: nil)?.rules == nil)
    }

    @Test func theNamedAppWinsWithItsBundles() throws {
        let dir = try TempDirectory()
        let (tree, _) = try Self.setUp(dir, lines: Self.appTraffic())
        let diagnosis = DoctorDiagnosis.diagnose(
            tree, lastLines: 20, sampleLines: 5000, app: "OtherApp", bundles: ["com.example.other"],
            rulesPath: "/r.json", givenRules: nil)
        #expect(diagnosis.apps?.chosen?.name == "OtherApp")
        #expect(diagnosis.apps?.chosen?.requests == 0)
        #expect(diagnosis.apps?.chosen?.bundles == ["com.example.other"])
        #expect(diagnosis.apps?.named == true)
    }

    /// The config doctor advises: the chosen logs in their format (the built-in ua_log by name),
    /// the rules doctor writes, the files under the state directory.
    @Test func theAdvisedConfig() throws {
        let dir = try TempDirectory()
        let (tree, log) = try Self.setUp(dir, lines: Self.appTraffic())
        let diagnosis = DoctorDiagnosis.diagnose(
            tree, lastLines: 20, sampleLines: 5000, app: nil, bundles: [], rulesPath: "/etc/uaaudit/rules.json",
            givenRules: nil)
        var expected = RunConfig()
        expected.version = 1
        expected.logs = [log]
        expected.format = RunConfig.FormatChoice(name: "ua_log")
        expected.rules = "/etc/uaaudit/rules.json"
        expected.state = "/s/state.json"
        expected.report = "/s/report.json"
        expected.html = "/s/report.html"
        expected.lock = "/s/uaaudit.lock"
        expected.prom = "/p.prom"
        var insight = RunConfig.InsightChoice()
        insight.clientKey = "remote_addr"
        expected.insight = insight
        #expect(diagnosis.runConfig(stateDir: "/s", prom: "/p.prom", givenRules: nil) == expected)
        // The operator's rules replace the ones doctor would write.
        #expect(diagnosis.runConfig(stateDir: "/s", prom: "/p.prom", givenRules: "/mine.json")?.rules == "/mine.json")
    }

    @Test func noConfigWithoutAFormatToAudit() throws {
        let dir = try TempDirectory()
        let tree = try NginxSource.dump(
            Array("# configuration file /etc/nginx/nginx.conf:\nhttp { access_log off; }\n".utf8)
        ).load()
        let diagnosis = DoctorDiagnosis.diagnose(
            tree, lastLines: 20, sampleLines: 5000, app: nil, bundles: [], rulesPath: dir.path("r.json"),
            givenRules: nil)
        #expect(diagnosis.formats.checks.isEmpty)
        #expect(diagnosis.formats.verdict == .mismatch)
        #expect(diagnosis.runConfig(stateDir: "/s", prom: "/p.prom", givenRules: nil) == nil)
    }
}
