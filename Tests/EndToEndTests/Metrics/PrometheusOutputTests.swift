import Foundation
import Testing

/// `--prom` on scan and run: the exact textfile, accepted by `promtool check metrics`; run's
/// counters grow across runs, outlive the pruned hours, and count a crashed run's lines once.
@Suite struct PrometheusOutputTests {
    static let sampleLogs = Tool.repoRoot.appendingPathComponent("SampleLogs")

    /// The metrics of SampleLogs/ua_log.log (SOURCE_DATE_EPOCH=0: the scan succeeded at 0).
    static let sampleMetrics = """
        # HELP uaaudit_requests_total Requests audited, by User-Agent class.
        # TYPE uaaudit_requests_total counter
        uaaudit_requests_total{class="webview"} 24
        uaaudit_requests_total{class="urlsession"} 49
        uaaudit_requests_total{class="inconsistent"} 7
        uaaudit_requests_total{class="other"} 13
        uaaudit_requests_total{class="missing"} 11
        # HELP uaaudit_classification_errors_total Requests whose User-Agent could not be classified (a PCRE2 match or heap limit was hit).
        # TYPE uaaudit_classification_errors_total counter
        uaaudit_classification_errors_total 0
        # HELP uaaudit_malformed_lines_total Log lines that did not match the log format.
        # TYPE uaaudit_malformed_lines_total counter
        uaaudit_malformed_lines_total 0
        # HELP uaaudit_out_of_scope_lines_total Requests outside the rules' path scope, counted but not audited.
        # TYPE uaaudit_out_of_scope_lines_total counter
        uaaudit_out_of_scope_lines_total 0
        # HELP uaaudit_latest_lines Log lines the latest scan or run read from its worst input (largest malformed share).
        # TYPE uaaudit_latest_lines gauge
        uaaudit_latest_lines 104
        # HELP uaaudit_latest_malformed_ratio Share of the lines of the latest scan's or run's worst input that did not match the log format.
        # TYPE uaaudit_latest_malformed_ratio gauge
        uaaudit_latest_malformed_ratio 0.0
        # HELP uaaudit_last_hour_start_timestamp_seconds Start of the newest closed hour.
        # TYPE uaaudit_last_hour_start_timestamp_seconds gauge
        uaaudit_last_hour_start_timestamp_seconds 1711900800
        # HELP uaaudit_last_hour_requests Requests audited in the newest closed hour.
        # TYPE uaaudit_last_hour_requests gauge
        uaaudit_last_hour_requests 52
        # HELP uaaudit_last_hour_alert_class_ratio The alert class's share of the requests in the newest closed hour.
        # TYPE uaaudit_last_hour_alert_class_ratio gauge
        uaaudit_last_hour_alert_class_ratio{class="inconsistent"} 0.038461538461538464
        # HELP uaaudit_last_hour_breached 1 when the newest closed hour's alert-class share was above the threshold with at least the minimum requests.
        # TYPE uaaudit_last_hour_breached gauge
        uaaudit_last_hour_breached 0
        # HELP uaaudit_last_hour_drift_alert 1 when a User-Agent drift alert fired for the newest closed hour (it alerts when this or breached is 1).
        # TYPE uaaudit_last_hour_drift_alert gauge
        uaaudit_last_hour_drift_alert 0
        # HELP uaaudit_alert_threshold_ratio Alert-class share above which an hour alerts.
        # TYPE uaaudit_alert_threshold_ratio gauge
        uaaudit_alert_threshold_ratio 0.001
        # HELP uaaudit_alert_min_requests Hours with fewer requests never alert.
        # TYPE uaaudit_alert_min_requests gauge
        uaaudit_alert_min_requests 100
        # HELP uaaudit_last_success_timestamp_seconds When the last run that read every input finished.
        # TYPE uaaudit_last_success_timestamp_seconds gauge
        uaaudit_last_success_timestamp_seconds 0

        """

    /// `promtool check metrics` on `text`: its exit status and what it said.
    static func promtoolCheck(_ promtool: String, _ text: String) throws -> ExternalTool.Output {
        let dir = try Scratch()
        let path = try dir.write("metrics.prom", text)
        let shell = "'\(promtool)' check metrics < '\(path)'"
        return try ExternalTool.run("/bin/sh", ["-c", shell])
    }

    /// The samples of a textfile, `name{labels}` to value, ignoring comments.
    static func samples(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            result[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return result
    }

    @Test(.requires(.promtool)) func scanWritesTheExactTextfileAndPromtoolAcceptsIt() throws {
        let dir = try Scratch()
        let prom = dir.path("uaaudit.prom")
        let result = try Tool.run(["scan", "-q", "--prom", prom, "ua_log.log"], directory: Self.sampleLogs)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let text = try String(contentsOfFile: prom, encoding: .utf8)
        #expect(text == Self.sampleMetrics)
        let attributes = try FileManager.default.attributesOfItem(atPath: prom)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["uaaudit.prom"])
        guard let promtool = ExternalTool.promtool("promtool check metrics") else { return }
        let check = try Self.promtoolCheck(promtool, text)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout + check.stderr == "")
    }

    @Test func aScanThatCouldNotReadAnInputHasNoSuccessTime() throws {
        let dir = try Scratch()
        let prom = dir.path("uaaudit.prom")
        let result = try Tool.run(
            ["scan", "-q", "--prom", prom, "ua_log.log", dir.path("missing.log")], directory: Self.sampleLogs)
        #expect(result.status == 3)
        let samples = Self.samples(try String(contentsOfFile: prom, encoding: .utf8))
        #expect(samples["uaaudit_requests_total{class=\"urlsession\"}"] == "49")
        #expect(samples["uaaudit_last_success_timestamp_seconds"] == nil)
        let unwritable = try Tool.run(
            ["scan", "-q", "--prom", "/nonexistent-dir/u.prom", "ua_log.log"], directory: Self.sampleLogs)
        #expect(unwritable.status == 6)
        #expect(
            unwritable.stderr
                == "uaaudit: cannot write metrics /nonexistent-dir/u.prom: No such file or directory; the previous one is untouched\n"
        )
    }

    @Test(.requires(.promtool)) func runCountersGrowAcrossRunsAndOutliveThePrunedHours() throws {
        let h = try RunHarness()
        let prom = h.dir.path("uaaudit.prom")
        let options = ["--prom", prom, "--history-hours", "1"]
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        #expect(try h.run(now: "2026-11-29T11:06:00Z", extra: options).status == 0)
        var samples = Self.samples(try String(contentsOfFile: prom, encoding: .utf8))
        #expect(samples["uaaudit_requests_total{class=\"urlsession\"}"] == "150")
        #expect(samples["uaaudit_requests_total{class=\"inconsistent\"}"] == "2")
        #expect(samples["uaaudit_last_hour_start_timestamp_seconds"] == "1795946400")  // 10:00Z
        #expect(samples["uaaudit_last_hour_requests"] == "152")
        #expect(samples["uaaudit_last_hour_alert_class_ratio{class=\"inconsistent\"}"] == "\(2.0 / 152.0)")
        #expect(samples["uaaudit_last_hour_breached"] == "1")
        #expect(samples["uaaudit_alerts_pending"] == "1")  // no channel: the breached hour waits for one
        #expect(samples["uaaudit_last_success_timestamp_seconds"] == "1795950360")  // 11:06Z

        // Three hours later the 10:00 hour has left the state, but not the counters.
        try h.append(40, hour: 13, cls: "other")
        try h.appendRaw("not a log line\n", to: h.log)
        #expect(try h.run(now: "2026-11-29T14:06:00Z", extra: options).status == 0)
        #expect(try h.hours().map(\.0) == ["2026-11-29T13:00:00+00:00"])
        let text = try String(contentsOfFile: prom, encoding: .utf8)
        samples = Self.samples(text)
        #expect(samples["uaaudit_requests_total{class=\"urlsession\"}"] == "150")
        #expect(samples["uaaudit_requests_total{class=\"inconsistent\"}"] == "2")
        #expect(samples["uaaudit_requests_total{class=\"other\"}"] == "40")
        #expect(samples["uaaudit_malformed_lines_total"] == "1")
        #expect(samples["uaaudit_last_hour_requests"] == "40")
        #expect(samples["uaaudit_last_hour_breached"] == "0")
        #expect(samples["uaaudit_last_success_timestamp_seconds"] == "1795961160")  // 14:06Z

        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.state))) as? [String: Any])
        let totals = try unwrap(state["totals"] as? [String: Any])
        #expect(totals["since"] as? String == "2026-11-29T11:06:00Z")
        #expect(totals["malformed"] as? Int == 1)
        guard let promtool = ExternalTool.promtool("promtool check metrics (run)") else { return }
        let check = try Self.promtoolCheck(promtool, text)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aRunKilledBeforeItsCommitLeavesTheMetricsAndIsCountedOnce() throws {
        let h = try RunHarness()
        let prom = h.dir.path("uaaudit.prom")
        try h.append(10, hour: 10)
        #expect(try h.run(now: "2026-11-29T10:30:00Z", extra: ["--prom", prom]).status == 0)
        let before = try String(contentsOfFile: prom, encoding: .utf8)
        try h.append(5, hour: 10, minute: 40)
        let killed = try h.run(
            now: "2026-11-29T10:50:00Z", extra: ["--prom", prom],
            environment: ["UAAUDIT_TEST_CRASH_AT": "before-commit"])
        #expect(killed.status == 9)  // SIGKILL
        #expect(try String(contentsOfFile: prom, encoding: .utf8) == before)
        #expect(try h.run(now: "2026-11-29T10:50:00Z", extra: ["--prom", prom]).status == 0)
        let samples = Self.samples(try String(contentsOfFile: prom, encoding: .utf8))
        #expect(samples["uaaudit_requests_total{class=\"urlsession\"}"] == "15")
        // No hour has closed yet: no last-hour gauges rather than made-up zeros.
        #expect(samples["uaaudit_last_hour_requests"] == nil)
    }

    @Test func theConfigKeysPromAndHTMLWriteBothFiles() throws {
        let h = try RunHarness()
        try h.append(3, hour: 10)
        let config = try h.dir.write(
            "uaaudit.json",
            """
            {"version": 1, "logs": ["\(h.log)"], "state": "\(h.state)", "prom": "\(h.dir.path("u.prom"))",
             "html": "\(h.dir.path("r.html"))"}
            """)
        let result = try Tool.run(["run", "-q", "--config", config, "--now", "2026-11-29T12:00:00Z"])
        #expect(result.status == 0, "\(result.stderr)")
        let samples = Self.samples(try String(contentsOfFile: h.dir.path("u.prom"), encoding: .utf8))
        #expect(samples["uaaudit_requests_total{class=\"urlsession\"}"] == "3")
        let html = try String(contentsOfFile: h.dir.path("r.html"), encoding: .utf8)
        #expect(html.contains("<td data-field=\"requests\">3</td>"))
    }
}
