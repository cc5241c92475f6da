import Foundation
import Testing

/// The shipped Prometheus rules and Grafana dashboard (dashboards/): the rules load in
/// `promtool check rules` and pass their unit tests; every dashboard query parses and names
/// only metrics uaaudit writes.
@Suite struct DashboardFilesTests {
    static let dashboards = Tool.repoRoot.appendingPathComponent("dashboards")

    @Test(.requires(.promtool)) func theExampleRulesLoadAndPassTheirUnitTests() throws {
        guard let promtool = ExternalTool.promtool("promtool check rules") else { return }
        let check = try ExternalTool.run(promtool, ["check", "rules", "uaaudit-rules.yml"], directory: Self.dashboards)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout == "Checking uaaudit-rules.yml\n  SUCCESS: 8 rules found\n\n")
        let test = try ExternalTool.run(
            promtool, ["test", "rules", "uaaudit-rules.test.yml"], directory: Self.dashboards)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("SUCCESS"))
    }

    /// Every `expr` of the dashboard, with the `$alert_class` variable filled in.
    static func dashboardQueries() throws -> [String] {
        let data = try Data(contentsOf: dashboards.appendingPathComponent("uaaudit-grafana.json"))
        let dashboard = try unwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try unwrap(dashboard["panels"] as? [[String: Any]])
        return panels.flatMap { panel in
            (panel["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String }
        }.map { $0.replacingOccurrences(of: "$alert_class", with: "inconsistent") }
    }

    @Test(.requires(.promtool)) func everyDashboardQueryParsesAndNamesOnlyUAAuditsMetrics() throws {
        let queries = try Self.dashboardQueries()
        #expect(queries.count == 9)
        // The metric names uaaudit writes, from a run (which writes them all).
        let h = try RunHarness()
        try h.append(5, hour: 10)
        let prom = h.dir.path("u.prom")
        #expect(try h.run(now: "2026-11-29T12:00:00Z", extra: ["--prom", prom]).status == 0)
        let written = Set(
            try String(contentsOfFile: prom, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
        #expect(written.count == 18)
        let pattern = try NSRegularExpression(pattern: "uaaudit_[a-z_]+")
        for query in queries {
            let names = pattern.matches(in: query, range: NSRange(query.startIndex..., in: query)).map {
                String(query[Range($0.range, in: query)!])
            }
            #expect(!names.isEmpty, "\(query)")
            for name in names { #expect(written.contains(name), "\(name) in \(query)") }
        }
        // promtool parses PromQL when it checks rules: each query becomes a recording rule.
        guard let promtool = ExternalTool.promtool("promtool check of the dashboard queries") else { return }
        let dir = try Scratch()
        var yaml = "groups:\n  - name: dashboard\n    rules:\n"
        for (i, query) in queries.enumerated() {
            let quoted = query.replacingOccurrences(of: "'", with: "''")
            yaml += "      - record: dashboard:query\(i)\n        expr: '\(quoted)'\n"
        }
        let rules = try dir.write("dashboard-rules.yml", yaml)
        let check = try ExternalTool.run(promtool, ["check", "rules", rules])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("SUCCESS: 9 rules found"))
    }
}
