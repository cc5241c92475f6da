import Foundation
import Testing

/// Issue 33: `explain --nginx-rules CONF` points at the rule of nginx's own configuration that
/// refuses the hour's alert-class UAs, when those requests were refused; never otherwise.
@Suite struct ExplainNginxRulesTests {
    static let rules = """
        {"version": 1, "app": "MyApp", "rules": [
          {"class": "urlsession", "patterns": ["^MyApp/"]},
          {"class": "inconsistent", "patterns": ["CFNetwork/"]}]}
        """
    static let conf = #"""
        events {}
        http {
            map $http_user_agent $bad_bot {
                default 0;
                "~*\bNinja\b" 3;
            }
            server {
                if ($bad_bot = 3) { return 444; }
            }
        }
        """#

    static func log(refused: Int) -> String {
        (0..<200).map { i in
            let odd = i % 50 == 0
            let ua = odd ? "Ninja/1 CFNetwork/1494.0.7 Darwin/23.4.0" : "MyApp/3.2.1 (iPhone; iOS 17.4; Scale/3.00)"
            let status = odd && i / 50 < refused ? 444 : 200
            return Lines.uaLog(time: "29/Nov/2026:17:\(String(format: "%02d", i % 60)):40 +0800", ua: ua)
                .replacingOccurrences(of: "\" 200 2 ", with: "\" \(status) 2 ")
        }.joined(separator: "\n") + "\n"
    }

    @Test func pointsAtTheEntryWhenTheAlertClassWasRefused() throws {
        let dir = try Scratch()
        let rules = try dir.write("rules.json", Self.rules)
        let conf = try dir.write("nginx.conf", Self.conf)
        let log = try dir.write("access.log", Self.log(refused: 4))
        let page = try Tool.run(["explain", "2026-11-29T17", "--rules", rules, "--nginx-rules", conf, log])
        #expect(page.status == 0, "\(page.stderr)")
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let pointer = flat(
            "What nginx refuses itself nginx's own rules refuse 1 of the 1 top inconsistent UAs: \(conf):5 (444); "
                + "uaaudit doctor --rules RULES names each")
        #expect(flat(page.out).hasSuffix(pointer))
        #expect(page.out.split(separator: "\n").allSatisfy { $0.count <= 80 })
        // From the report of the same log: the same line.
        let report = dir.path("report.json")
        #expect(try Tool.run(["scan", "-q", "--rules", rules, "--out", report, log]).status == 0)
        let fromReport = try Tool.run(["explain", "2026-11-29T17", "--nginx-rules", conf, report])
        #expect(fromReport.status == 0, "\(fromReport.stderr)")
        #expect(flat(fromReport.out).hasSuffix(pointer))
    }

    @Test func saysNothingWhenNothingWasRefusedOrNoRuleRefuses() throws {
        let dir = try Scratch()
        let rules = try dir.write("rules.json", Self.rules)
        let conf = try dir.write("nginx.conf", Self.conf)
        let unrefused = try dir.write("ok.log", Self.log(refused: 0))
        let page = try Tool.run(["explain", "2026-11-29T17", "--rules", rules, "--nginx-rules", conf, unrefused])
        #expect(page.status == 0)
        #expect(!page.out.contains("What nginx refuses itself"))
        let harmless = try dir.write("other.conf", Self.conf.replacingOccurrences(of: "Ninja", with: "Drip"))
        let refused = try dir.write("refused.log", Self.log(refused: 4))
        let other = try Tool.run(["explain", "2026-11-29T17", "--rules", rules, "--nginx-rules", harmless, refused])
        #expect(other.status == 0)
        #expect(!other.out.contains("What nginx refuses itself"))
        let missing = try Tool.run(["explain", "2026-11-29T17", "--nginx-rules", dir.path("none.conf"), refused])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("uaaudit: --nginx-rules \(dir.path("none.conf")): cannot read nginx config"))
    }
}
