import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `rules init` rules for real apps against every UA of device-detector's fixtures (38,121
/// distinct real UAs), fetched and extracted by `scripts/real-ua-corpus.py` into
/// `.build/corpus/` (or the file named by `UAAUDIT_CORPUS`). Skipped, loudly, where the corpus
/// is absent; CI (`UAAUDIT_REQUIRE_SERVERS=1`) fetches it first and fails without it.
@Suite struct RealCorpusTests {
    static let path =
        ProcessInfo.processInfo.environment["UAAUDIT_CORPUS"]
        ?? RulesFileTests.repoRoot.appendingPathComponent(".build/corpus/device-detector-6.5.1.tsv").path
    static let required = ProcessInfo.processInfo.environment["UAAUDIT_REQUIRE_SERVERS"] == "1"
    static let present: Bool = {
        let found = FileManager.default.fileExists(atPath: path)
        if !found {
            print(
                "\n*** THE REAL-UA CORPUS IS ABSENT (\(path)): RealCorpusTests "
                    + (required ? "FAIL (UAAUDIT_REQUIRE_SERVERS=1)" : "are SKIPPED")
                    + ". Run scripts/real-ua-corpus.py to fetch it. ***\n")
        }
        return found
    }()

    struct Row {
        var group: String
        var ua: String
    }

    static func rows() throws -> [Row] {
        guard present else {
            Issue.record(
                "UAAUDIT_REQUIRE_SERVERS=1 but the real-UA corpus \(path) is absent: run scripts/real-ua-corpus.py")
            return []
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            return fields.count == 5 ? Row(group: String(fields[0]), ua: String(fields[4])) : nil
        }
    }

    /// The apps of the fixtures the rules are written for (the same as the script's table).
    static let apps: [(app: String, token: String?)] = [
        ("iHeartRadio", nil), ("Liulo", nil), ("NAVER", nil), ("KakaoTalk", "KAKAOTALK"), ("Instagram", nil),
        ("Downcast", nil), ("Snipd", nil), ("LBC", nil), ("Microsoft Office Word", nil), ("ReutersNews", nil),
        ("Anghami", nil),
    ]
    static let appClasses: Set<String> = ["webview", "urlsession", "inconsistent"]

    /// The modern default WKWebView: any app's, so it may be in the alert class whoever sent it.
    static let defaultWebView = try! NSRegularExpression(
        pattern:
            #"^Mozilla/5\.0 \((?:iPhone|iPad|iPod touch); CPU (?:iPhone )?OS \d+(?:_\d+)+ like Mac OS X\) AppleWebKit/605\.1\.15 \(KHTML, like Gecko\) Mobile/15E148$"#
    )

    static func isDefaultWebView(_ ua: String) -> Bool {
        defaultWebView.firstMatch(in: ua, range: NSRange(ua.startIndex..., in: ua)) != nil
    }

    /// The class a UA naming the app should get, from its shape alone (nil: not one of the app's iOS stacks).
    static func expectedShape(_ ua: String, app: String, token: String) -> String? {
        // The bare default URLSession UA: the bundle name in any case, its build, CFNetwork, Darwin, nothing after.
        if ua.lowercased().hasPrefix(app.lowercased() + "/"),
            ua.dropFirst(app.count).range(of: #"^/[^ /]+ CFNetwork/[\d.]+ Darwin/[\d.]+$"#, options: .regularExpression)
                != nil
        {
            return "inconsistent"
        }
        if ua.hasPrefix("Mozilla/5.0 (iP"), ua.contains("(KHTML, like Gecko)"), ua.contains(" " + token) {
            return "webview"
        }
        // The app's name and version, and an iOS version anywhere after them: '(iPhone; iOS 16.3.1)',
        // '(iOS/14.2; …)', '(iPad; CPU OS 12_5_7 like Mac OS X)', 'iPadOS/17.5.1 CFNetwork/…', '… Darwin/… iOS16.2'.
        if ua.hasPrefix(app + "/") || ua.hasPrefix(app + " "),
            ua.range(of: #"[ /;(](iOS|iPadOS|iPhone OS|CPU OS)[ /]?\d"#, options: .regularExpression) != nil
        {
            return "urlsession"
        }
        return nil
    }

    @Test(.enabled(if: present || required, "the real-UA corpus is absent: run scripts/real-ua-corpus.py"))
    func initRulesForRealAppsHoldOnTheCorpus() throws {
        let rows = try Self.rows()
        guard !rows.isEmpty else { return }
        #expect(rows.count > 38_000)
        for (app, token) in Self.apps {
            let rules = try RulesTemplate(app: app, webviewToken: token).file().compile(path: app)
            let classifier = Classifier(rules: rules)
            let needles = [app.lowercased(), (token ?? app).lowercased()]
            var own: [String: Int] = [:]
            var found: [String: Int] = [:]
            var leaks = 0
            for row in rows {
                let got = classifier.explain(Array(row.ua.utf8)).className
                let lower = row.ua.lowercased()
                let namesApp = needles.contains { lower.contains($0) }
                if !namesApp, Self.appClasses.contains(got), !Self.isDefaultWebView(row.ua) {
                    leaks += 1
                    Issue.record("\(app): a foreign UA is \(got): \(row.ua)")
                }
                switch row.group {
                case "ios-mobile-safari", "ios-chrome-firefox-edge", "macos-safari":
                    #expect(got == "browser", "\(app): \(row.group) \(row.ua)")
                case "bot", "spoofed-ios":
                    #expect(!Self.appClasses.contains(got), "\(app): \(row.group) \(row.ua)")
                default:
                    break
                }
                if namesApp {
                    if let expected = Self.expectedShape(row.ua, app: app, token: token ?? app) {
                        #expect(got == expected, "\(app): own UA \(row.ua)")
                        own[expected, default: 0] += 1
                        if got == expected { found[expected, default: 0] += 1 }
                    } else {
                        #expect(got != "inconsistent", "\(app): own non-iOS UA \(row.ua)")
                    }
                }
            }
            // Per shape: the app's own UAs found in the class their shape says / those the corpus has.
            let recall = own.keys.sorted().map { "\($0) \(found[$0, default: 0])/\(own[$0, default: 0])" }
            print(
                "RealCorpusTests \(app): \(recall.joined(separator: ", ")); foreign UAs in its classes or the alert class: \(leaks)"
            )
            // The app's own UAs really are in the fixtures, in the stacks they are known to be.
            let seen: [String: [String: Int]] = [
                "iHeartRadio": ["urlsession": 1, "inconsistent": 1],
                "Liulo": ["urlsession": 2, "inconsistent": 1],
                "NAVER": ["webview": 28, "inconsistent": 1],
                "KakaoTalk": ["webview": 1, "inconsistent": 1],
                "Instagram": ["webview": 23, "urlsession": 1],
                "Downcast": ["urlsession": 1],
                "Snipd": ["urlsession": 1, "inconsistent": 1],
                "LBC": ["urlsession": 2, "inconsistent": 1],
                "Microsoft Office Word": ["urlsession": 7],
                "ReutersNews": ["urlsession": 2],
                "Anghami": ["urlsession": 1, "inconsistent": 1],
            ]
            #expect(own == seen[app], "\(app)")
            #expect(found == seen[app], "\(app)")
            #expect(leaks == 0, "\(app)")
        }
    }
}
