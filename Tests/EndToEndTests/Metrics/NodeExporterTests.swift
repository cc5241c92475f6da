import Foundation
import Testing

/// The whole path a fleet uses: uaaudit writes its textfile, Debian's node_exporter serves it
/// on /metrics, and a Prometheus server scrapes it and loads the example rules.
@Suite struct NodeExporterTests {
    static func nodeExporter() -> String? {
        ExternalTool.find(.nodeExporter, test: "the node_exporter test")
    }

    /// node_exporter with only the textfile collector, reading `directory`.
    static func startNodeExporter(_ binary: String, directory: String, log: String) throws -> Daemon {
        try Daemon(binary, log: log, readyPath: "/metrics") { port in
            [
                "--collector.disable-defaults", "--collector.textfile",
                "--collector.textfile.directory=\(directory)", "--web.listen-address=127.0.0.1:\(port)",
            ]
        }
    }

    /// The uaaudit samples of a /metrics page, `name{labels}` to value (node_exporter writes
    /// large numbers as `1.711908e+09`, so values are compared as numbers).
    static func uaauditSamples(_ page: String) -> [String: Double] {
        var result: [String: Double] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("uaaudit_") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            result[String(line[..<space])] = value
        }
        return result
    }

    @Test(.requires(.nodeExporter)) func nodeExporterServesWhatUAAuditWrote() throws {
        guard let binary = Self.nodeExporter() else { return }
        let dir = try Scratch()
        let textfiles = dir.path("textfile")
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
        let scan = try Tool.run(
            ["scan", "-q", "--prom", "\(textfiles)/uaaudit.prom", "ua_log.log"],
            directory: PrometheusOutputTests.sampleLogs)
        #expect(scan.status == 0)
        let exporter = try Self.startNodeExporter(binary, directory: textfiles, log: dir.path("node_exporter.log"))
        let page = try unwrap(try ExternalTool.get(exporter.base + "/metrics"))
        #expect(page.contains("\nnode_textfile_scrape_error 0\n"))
        #expect(page.contains("# TYPE uaaudit_requests_total counter\n"))
        let expected = PrometheusOutputTests.samples(PrometheusOutputTests.sampleMetrics).mapValues { Double($0)! }
        #expect(Self.uaauditSamples(page) == expected)
        #expect(expected.count == 18)
    }

    @Test(.requires(.nodeExporter), .requires(.prometheus)) func prometheusScrapesTheMetricsAndLoadsTheRules() throws {
        guard let binary = Self.nodeExporter(),
            let prometheus = ExternalTool.find(.prometheus, test: "the Prometheus scrape test")
        else { return }
        let h = try RunHarness()
        let textfiles = h.dir.path("textfile")
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        let run = try h.run(now: "2026-11-29T11:06:00Z", extra: ["--prom", "\(textfiles)/uaaudit.prom"])
        #expect(run.status == 0)
        let exporter = try Self.startNodeExporter(binary, directory: textfiles, log: h.dir.path("node_exporter.log"))
        let rules = Tool.repoRoot.appendingPathComponent("dashboards/uaaudit-rules.yml").path
        let config = try h.dir.write(
            "prometheus.yml",
            """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files:
              - \(rules)
            scrape_configs:
              - job_name: node
                static_configs:
                  - targets: ['127.0.0.1:\(exporter.port)']
            """)
        let server = try Daemon(prometheus, log: h.dir.path("prometheus.log"), readyPath: "/-/ready") { port in
            [
                "--config.file=\(config)", "--storage.tsdb.path=\(h.dir.path("tsdb"))",
                "--web.listen-address=127.0.0.1:\(port)",
            ]
        }
        // The first scrape comes within a second or two of start.
        var values: [String: String] = [:]
        let query = "\(server.base)/api/v1/query?query=uaaudit_requests_total"
        for _ in 0..<150 where values.isEmpty {
            if let body = try ExternalTool.get(query),
                let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                let result = (json["data"] as? [String: Any])?["result"] as? [[String: Any]]
            {
                for series in result {
                    if let cls = (series["metric"] as? [String: String])?["class"],
                        let value = (series["value"] as? [Any])?.last as? String
                    {
                        values[cls] = value
                    }
                }
            }
            if values.isEmpty { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(values == ["webview": "0", "urlsession": "150", "inconsistent": "2", "other": "0", "missing": "0"])
        let rulesPage = try unwrap(try ExternalTool.get("\(server.base)/api/v1/rules"))
        let groups = try unwrap(
            ((JSONSerialization.jsonObject(with: Data(rulesPage.utf8)) as? [String: Any])?["data"] as? [String: Any])?[
                "groups"] as? [[String: Any]])
        let loaded = groups.flatMap { $0["rules"] as? [[String: Any]] ?? [] }
        #expect(
            loaded.compactMap { $0["name"] as? String } == [
                "uaaudit:requests:increase1h", "uaaudit:inconsistent:ratio1h", "UAAuditInconsistentShareHigh",
                "UAAuditNotRunning", "UAAuditLogUnreadable", "UAAuditLogFormatMismatch", "UAAuditClockHeld",
                "UAAuditAlertsExpired",
            ])
    }
}
