import Foundation
import Testing

/// The class index is one byte on the hot path: a rules file may have at most 250 rules, and
/// one with more is refused with exit 2 naming the maximum, never misclassified. Before,
/// 256 or more classes silently counted `inconsistent` as `errors` or as another class.
@Suite struct ManyRulesTests {
    /// `count` rules `c0…`; rule `c<i>` matches UAs containing `tok<i>;`, and the last rule is
    /// the alert class `inconsistent`.
    static func rulesFile(_ dir: Scratch, count: Int) throws -> String {
        var rules: [[String: Any]] = (0..<(count - 1)).map { ["class": "c\($0)", "patterns": ["tok\($0);"]] }
        rules.append(["class": "inconsistent", "patterns": ["tok\(count - 1);"]])
        let json: [String: Any] = ["version": 1, "alert_class": "inconsistent", "rules": rules]
        let path = dir.path("rules-\(count).json")
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [249, 250])
    func upToTheMaximumEveryClassIsRight(count: Int) throws {
        let dir = try Scratch()
        let rules = try Self.rulesFile(dir, count: count)
        // One request per rule, plus one that no rule matches.
        let lines = (0..<count).map { Lines.uaLog(ua: "Agent tok\($0); x") } + [Lines.uaLog(ua: "nobody")]
        let log = try dir.write("a.log", lines.joined(separator: "\n") + "\n")
        let result = try Tool.run(["scan", "--json", "--min-requests", "1", "--rules", rules, log])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let totals = try unwrap(report["totals"] as? [String: Any])
        let classes = try unwrap(totals["classes"] as? [String: Int])
        for i in 0..<(count - 1) { #expect(classes["c\(i)"] == 1, "c\(i)") }
        #expect(classes["inconsistent"] == 1)
        #expect(classes["other"] == 1)
        #expect(totals["errors"] as? Int ?? 0 == 0)
        #expect(totals["requests"] as? Int == count + 1)
    }

    @Test(arguments: [251, 254, 255, 256, 300])
    func moreThanTheMaximumIsAConfigurationError(count: Int) throws {
        let dir = try Scratch()
        let rules = try Self.rulesFile(dir, count: count)
        let log = try dir.write("a.log", Lines.uaLog(ua: "Agent tok1; x") + "\n")
        for args in [["scan", "--rules", rules, log], ["classify", "--rules", rules, "Agent tok1; x"]] {
            let result = try Tool.run(args)
            #expect(result.status == 2, "\(args[0]): \(result.stderr)")
            #expect(result.stderr.contains("has \(count) rules; at most 250 are allowed"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
