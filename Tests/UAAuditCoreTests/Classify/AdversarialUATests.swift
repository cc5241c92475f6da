import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Crafted UAs against every shipped pattern set (issue 31): each is classified, never counted
/// under errors, and only its first 8 KiB is matched. `bench/adversarial.py` times them.
@Suite struct AdversarialUATests {
    /// `head`, then `unit` repeated whole, then `tail`: `bytes` long, the bytes a whole unit
    /// leaves over written as `1`s after `head` (more digits of its version).
    static func crafted(_ head: String, _ unit: String, _ tail: String = "", bytes: Int = 8192) -> [UInt8] {
        let room = bytes - head.utf8.count - tail.utf8.count
        let units = String(repeating: unit, count: room / unit.utf8.count)
        return Array((head + String(repeating: "1", count: room % unit.utf8.count) + units + tail).utf8)
    }

    static func shipped(_ name: String) throws -> RuleSet {
        try RulesFile.load(path: RulesFileTests.repoRoot.appendingPathComponent("rules/\(name)").path)
    }

    static let webkitTail = " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"

    /// The shapes that cost the most, each 8 KiB, per shipped rule set and their class.
    @Test(arguments: [
        ("built-in", "issue", "urlsession"), ("built-in", "prefixes", "other"),
        ("builtin.json", "issue", "urlsession"), ("api-only.json", "prefixes", "other"),
        ("ios-defaults.json", "parts", "inconsistent"), ("ios-defaults.json", "prefixes", "other"),
        ("rules init", "parts", "inconsistent"), ("rules init", "device", "other_app"),
    ])
    func aCraftedUAIsClassified(set: String, shape: String, expected: String) throws {
        let rules: RuleSet
        switch set {
        case "built-in": rules = RuleSet.builtin()
        case "rules init": rules = try RulesTemplate(app: "MyApp").file().compile(path: "init")
        default: rules = try Self.shipped(set)
        }
        let ua: [UInt8]
        switch shape {
        // 'MyApp/1.1.1 (iPhone;N ' + 'iOS 1_1)' × 1,000: 137× an ordinary line per byte before.
        case "issue": ua = Self.crafted("MyApp/1.1.1 (iPhone;N ", "iOS 1_1)")
        case "prefixes": ua = Self.crafted("", "MyApp/1.1.1 (iPhone;")
        // 'CPU iPhone OS 17_0_0_…' in 4,000 parts: the JIT stack ran out (errors) before.
        case "parts": ua = Self.crafted("Mozilla/5.0 (iPhone; CPU iPhone OS 17", "_0", Self.webkitTail)
        default: ua = Self.crafted("Mozilla/5.0 (iPhone; CPU iPhone OS 17", "_0", Self.webkitTail + " Other/1")
        }
        #expect(ua.count == 8192)
        #expect(Classifier(rules: rules).explain(ua).className == expected)
    }

    /// Only the first 8 KiB of a UA is matched: a `Safari/` past it does not make a webview,
    /// one that ends on the last byte does. A 60 KiB UA of repeated openings (3,000 starts,
    /// each scanning the rest: over the match limit, so errors, before) is classified too.
    @Test func onlyTheFirstEightKiBAreMatched() {
        let classifier = Classifier(rules: RuleSet.builtin())
        let head = "MyApp/1.1.1 (iPhone; iOS 1_1)"
        #expect(Classifier.maxMatchedBytes == 8192)
        let inside = Self.crafted(head, "x", " Safari/1.1")
        #expect(classifier.explain(inside).className == "webview")
        let past = Self.crafted(head, "x", " Safari/1.1", bytes: 8193)
        #expect(classifier.explain(past).className == "urlsession")
        #expect(past.withUnsafeBytes { classifier.firstMatch($0) }?.rule == 1)
        let long = Self.crafted("", "MyApp/1.1.1 (iPhone;", bytes: 60_000)
        #expect(classifier.explain(long).className == "other")
    }

    /// The linear forms match exactly what the built-in patterns' text matches: on 30,000
    /// strings of the pieces they look for (and newlines, which `.` does not cross), and on
    /// the UAs of the tests.
    @Test func linearFormsMatchWhatTheirTextMatches() throws {
        let pieces = [
            "MyApp/1.2.3 (iPhone;", "MyApp/1.2 (iPhone;", "iOS 17_4)", "iOS 17_4", "iOS 1_", "Safari/604.1",
            "Safari/6", " ", "x", "\n", ")", "1", "MyApp/", " (iPhone;",
        ]
        var rng = SplitMix64(state: 31)
        var subjects: [[UInt8]] = RuleSetTests.table.map { Array($0.ua.utf8) }
        for _ in 0..<30_000 {
            let n = Int(rng.next() % 12)
            subjects.append(Array((0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined().utf8))
        }
        #expect(LinearForms.known.count == 2)
        let matcher = PatternMatcher()
        for (source, _) in LinearForms.known {
            let text = try Pattern(source, linear: false)
            let linear = try Pattern(source)
            var matched = 0
            for subject in subjects {
                let a = subject.withUnsafeBytes { matcher.search(text, in: $0) }
                let b = subject.withUnsafeBytes { matcher.search(linear, in: $0) }
                #expect(a == b, "\(source) on \(String(decoding: subject, as: UTF8.self).debugDescription)")
                if a == .match { matched += 1 }
            }
            #expect(matched > 100, "\(source): \(matched)")
        }
        // The built-in rules and the shipped files name the text, as reports always have.
        #expect(RuleSet.builtinSources.filter { LinearForms.known[$0.pattern] != nil }.count == 2)
    }

    /// A rules file may lower the match and heap limits, not raise them past the defaults.
    @Test(arguments: [
        (#""match_limit": 4294967295"#, "match_limit 4294967295 is over the maximum 1000000"),
        (#""heap_limit_kib": 20001"#, "heap_limit_kib 20001 is over the maximum 20000"),
    ])
    func limitsOverTheMaximumAreRefused(key: String, message: String) {
        let json = #"{"version": 1, "# + key + #", "alert_class": "a", "rules": [{"class": "a", "patterns": ["x"]}]}"#
        #expect(
            throws: RulesError.limitTooHigh(
                path: "r.json", key: key.hasPrefix(#""match"#) ? "match_limit" : "heap_limit_kib",
                value: key.hasPrefix(#""match"#) ? 4_294_967_295 : 20_001,
                maximum: key.hasPrefix(#""match"#) ? 1_000_000 : 20_000)
        ) { try RulesFile.parse(Array(json.utf8), path: "r.json") }
        do {
            _ = try RulesFile.parse(Array(json.utf8), path: "r.json")
        } catch {
            #expect(
                error.description
                    == "rules file r.json: \(message) (the default; a higher limit only lets a backtracking pattern "
                    + "spend longer on each UA): lower it or leave it out")
        }
        let atMaximum =
            #"{"version": 1, "match_limit": 1000000, "heap_limit_kib": 20000, "alert_class": "a", "rules": [{"class": "a", "patterns": ["x"]}]}"#
        #expect((try? RulesFile.parse(Array(atMaximum.utf8), path: "r.json"))?.limits == MatchLimits.standard)
    }
}
