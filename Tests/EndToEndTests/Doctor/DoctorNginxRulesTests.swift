import Foundation
import Testing

/// Issue 33: `doctor --rules` names the line of nginx's own configuration that refuses the app's
/// UAs. A bad-bot blocker in the style of the widely installed ones (hundreds of `\bWord\b`
/// entries and `return 444`), a UA whitelist acted on in one location and a `~* darwin` rule in
/// another, on a real nginx, read through `nginx -T`: an app named like a blocked word loses
/// every request to the word's entry; an app no entry matches is named by none of them.
@Suite(.serialized) struct DoctorNginxRulesTests {
    /// Words in the blocker, made up but in its style; the real blockers' words are in there too.
    static let words: [String] = {
        let heads = ["Blu", "Cra", "Dex", "Fro", "Gal", "Hop", "Jin", "Kro", "Lum", "Mav", "Nor", "Pex"]
        let tails = ["bot", "scan", "grab", "leech", "fetch", "spider", "miner", "ripper", "sucker", "copier"]
        var words: [String] = []
        for head in heads { for tail in tails { words.append(head + tail) } }
        for head in heads { for tail in tails { words.append(tail.capitalized + head.lowercased()) } }
        words.insert(contentsOf: ["Collector", "Drip", "Ninja"], at: 37)
        words.insert("Cosmos", at: 180)
        return words
    }()

    static func blacklist() -> String {
        var out = "map $http_user_agent $bad_bot {\n    default\t\t0;\n"
        for word in words { out += "    \"~*(?:\\b)\(word)(?:\\b)\"\t\t3;\n" }
        return out + "}\n"
    }

    static let whitelist = """
        map $http_user_agent $is_app {
            default                 0;
            "~^(Cosmos|Glimmer)/"   1;
            "~CFNetwork/"           1;
        }
        """
    static let locations = #"""
        include BLOCKBOTS;
        location /api/ {
            if ($is_app = 0) {
                return 403;
            }
            return 200 "ok";
        }
        location /legacy/ {
            if ($http_user_agent ~* darwin) { return 403; }
            return 200 "ok";
        }
        location / { return 200 "ok"; }
        """#

    static func uas(_ app: String) -> (urlsession: String, webview: String, cfnetwork: String) {
        (
            "\(app)/2.1.0 (iPhone; iOS 17.4; Scale/3.00)",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 \(app)/2.1.0",
            "\(app)/210 CFNetwork/1494.0.7 Darwin/23.4.0"
        )
    }

    static func rules(_ app: String) -> String {
        let ua = uas(app)
        return """
            {"version": 1, "app": "\(app)", "rules": [
              {"class": "webview", "patterns": ["^Mozilla/5\\\\.0 .* \(app)/[0-9.]+$"]},
              {"class": "urlsession", "patterns": ["^\(app)/[0-9.]+ \\\\("]},
              {"class": "inconsistent", "patterns": ["^\(app)/[0-9]+ CFNetwork/"]}],
             "examples": [
              {"ua": "\(ua.urlsession)", "class": "urlsession"},
              {"ua": "\(ua.webview)", "class": "webview"},
              {"ua": "\(ua.cfnetwork)", "class": "inconsistent"}]}
            """
    }

    @Test(.requires(.nginx)) func namesTheLinesThatRefuseTheAppAndNoneForAnAppTheyMiss() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the doctor nginx rules test") else { return }
        let files = try Scratch()
        let blacklist = try files.write("globalblacklist.conf", Self.blacklist())
        let blockbots = try files.write("blockbots.conf", "if ($bad_bot = '3') {\n    return 444;\n}\n")
        let nginx = try LiveNginx(
            binary: binary, locations: Self.locations.replacingOccurrences(of: "BLOCKBOTS", with: blockbots),
            http: "include \(blacklist);\n" + Self.whitelist)
        // Traffic of both apps: what the log shows of each refusal.
        for app in ["Cosmos", "Glimmer"] {
            let ua = Self.uas(app)
            for (path, agent, count) in [
                ("/api/me", ua.urlsession, 6), ("/api/page", ua.webview, 4), ("/legacy/sync", ua.cfnetwork, 3),
            ] {
                for _ in 0..<count { _ = try nginx.answer(path, ua: agent) }
            }
        }
        nginx.waitForLines(26, in: [nginx.log])
        let dump = try DoctorLiveNginxTests.dump(nginx)
        let cosmos = try files.write("cosmos.json", Self.rules("Cosmos"))
        let glimmer = try files.write("glimmer.json", Self.rules("Glimmer"))
        let conf = nginx.dir.path("nginx.conf")
        let confText = try String(contentsOfFile: conf, encoding: .utf8).components(separatedBy: "\n")
        func line(_ text: String, after: String = "") -> Int {
            let start = after.isEmpty ? 0 : (confText.firstIndex { $0.contains(after) } ?? 0)
            return (confText[start...].firstIndex { $0.contains(text) } ?? -1) + 1
        }
        let server = line("server {")
        let cosmosEntry = 2 + 1 + Self.words.firstIndex(of: "Cosmos")!
        let c = Self.uas("Cosmos")
        let g = Self.uas("Glimmer")

        // Cosmos is a blocked word: every UA of it is dropped by that entry, in every location.
        let doctor = try Tool.run(["doctor", "-", "--rules", cosmos], stdin: dump)
        #expect(doctor.status == 0, "\(doctor.stderr)")
        let section =
            (doctor.out.components(separatedBy: "\nnginx's own UA rules").dropFirst().first ?? "")
            .components(separatedBy: "\n\n")[0]
        // Prose within 80 columns; a path longer than a line ends its line, whole.
        for line in section.split(separator: "\n") where line.count > 80 {
            #expect(line.split(separator: " ").last.map { $0.hasPrefix("/tmp/") && $0.count > 60 } == true, "\(line)")
        }
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(
            flat(section)
                == flat(
                    """
                    , tried on 3 of the app's UAs (3 from the examples of \(cosmos)):
                      2 maps on the UA (\(Self.words.count + 4) entries), 3 ifs on it or on what it decides
                      return 444 for webview, urlsession, inconsistent UAs, in every location of
                        server (no server_name) (\(conf):\(server)):
                        decided by \(blacklist):\(cosmosEntry) ~*(?:\\b)Cosmos(?:\\b) 3
                        acted on by \(blockbots):1 if ($bad_bot = 3)
                        acted on by \(blockbots):2 return 444
                        UA \(c.urlsession) [urlsession]
                        UA \(c.webview) [webview]
                        UA \(c.cfnetwork) [inconsistent]
                        in the last 26 lines: 4 webview requests, 6 urlsession requests, 3
                          inconsistent requests got 444
                      nginx itself refuses the app's webview and urlsession UAs (return 444):
                      change the entry at \(blacklist):\(cosmosEntry), or the
                      app's UA, before any other audit figure can be trusted.
                    """))

        // Glimmer is no blocked word: the blocker names none of its UAs; the whitelist refuses
        // its web view in /api/, the darwin rule its CFNetwork default in /legacy/.
        let other = try Tool.run(["doctor", "-", "--rules", glimmer, "--json"], stdin: dump)
        #expect(other.status == 0, "\(other.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(other.stdout)) as? [String: Any]
        let rules = object?["ua_rules"] as? [String: Any]
        let findings = rules?["findings"] as? [[String: Any]] ?? []
        func summary(_ finding: [String: Any]) -> String {
            let decided = (finding["decided_by"] as? [[String: Any]] ?? []).map { $0["line"] as? Int ?? -1 }
            let acted = (finding["acted_on_by"] as? [String: Any])?["line"] as? Int ?? -1
            let uas = (finding["uas"] as? [[String: Any]] ?? []).map { $0["ua"] as? String ?? "" }
            let logged = (finding["logged"] as? [String: Int] ?? [:]).map { "\($0.key) \($0.value)" }.sorted()
            return "\(decided) \(acted) \(finding["status"] as? Int ?? -1) \(finding["locations"] as? [String] ?? []) "
                + "\(finding["app_class"] as? Bool ?? false) \(uas) \(logged)"
        }
        let webviewRefused =
            "[\(line("default", after: "$is_app"))] \(line("return 403;")) 403 [\"/api/\"] true "
            + "[\"\(g.webview)\"] [\"webview 4\"]"
        let cfnetworkRefused =
            "[\(line("darwin"))] \(line("darwin")) 403 [\"/legacy/\"] false [\"\(g.cfnetwork)\"] "
            + "[\"inconsistent 3\"]"
        #expect(findings.map(summary) == [webviewRefused, cfnetworkRefused])
        #expect(!String(decoding: other.stdout, as: UTF8.self).contains("Cosmos"))
    }
}
