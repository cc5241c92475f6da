import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Issue 33: the values uaaudit computes for nginx's `map` and rewrite rules are the values a
/// real nginx computes, for a corpus of configurations and UAs: exact keys before regexes
/// (case-insensitively), `~` and `~*`, regexes in order, `default` (and none), an escaped
/// `\default` key, `include` inside the block, chained maps, a source and values with variables,
/// and the bad-bot blockers' `\b` word patterns.
@Suite(.serialized) struct NginxMapSemanticsTests {
    static func maps(include: String) -> String {
        mapsTemplate.replacingOccurrences(of: "INCLUDE", with: include)
    }
    static let mapsTemplate = #"""
        map $http_user_agent $m_order {
            default                "default";
            "~^MyApp/"             "regex-first";
            "myapp/1.0"            "exact";
            "~*myapp"              "regex-caseless";
            "~Bot"                 "regex-bot";
            \default               "escaped-default-key";
        }
        map $http_user_agent $m_case {
            "~Darwin"   "cs";
            "~*darwin"  "ci";
        }
        map $m_case $m_chain {
            default "none";
            cs      "chain-cs";
            CI      "chain-ci";
        }
        map "$http_user_agent|$m_case" $m_complex {
            default  "d";
            "~\|ci$" "complex-ci";
            "~^Über" "complex-uber";
        }
        map $http_user_agent $m_include {
            default "no";
            include INCLUDE;
        }
        map $http_user_agent $m_value {
            default        "plain";
            "~Collector"   "v-$m_case-$m_chain";
        }
        map $http_user_agent $m_words {
            default 0;
            "~*\bCollector\b"        3;
            "~*(?:\b)Ninja(?:\b)"    3;
            "~*^Mozilla/5\.0 \(iPhone" 1;
        }
        """#
    static let include = """
        "~*\\bparcelo\\b" "included";
        "Exact Include/1" "included-exact";
        """
    static let variables = ["m_order", "m_case", "m_chain", "m_complex", "m_include", "m_value", "m_words"]

    /// UAs that take each kind of entry, and some that take none.
    static let uas = [
        "MyApp/1.0", "MYAPP/1.0", "MyApp/1.0 (iPhone; iOS 17.4)", "myapp/2", "SomeBot/1", "somebot/1", "default",
        "Default", "x Darwin/23", "x darwin/23", "x DARWIN/23", "Collector/1 (iPhone) Darwin/23.4.0",
        "TheCollectorX/1", "Ninja-Go/2", "ninja", "Parcelo/4.1 CFNetwork/1494.0.7 Darwin/23.4.0", "Exact Include/1",
        "exact include/1", "Über/1 darwin", "Über/1", "",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
        "a \"quoted\" UA\\with backslash", "MyApp/1.0 ",
    ]

    @Test(.requires(.nginx)) func mapValuesAreNginxsOwn() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the nginx map semantics test") else { return }
        let location =
            #"location = /v { return 200 ""# + Self.variables.map { "$\($0)" }.joined(separator: "|") + #""; }"#
        let files = try Scratch()
        let nginx = try LiveNginx(
            binary: binary, locations: location,
            http: Self.maps(include: try files.write("uamap.inc", Self.include)))
        let tree = try NginxConfigTree.load(path: nginx.dir.path("nginx.conf"))
        var compared = 0
        for ua in Self.uas {
            let answer = try nginx.answer("/v", ua: ua)
            #expect(answer.status == 200, "UA \(ua)")
            let theirs = answer.body.components(separatedBy: "|")
            #expect(theirs.count == Self.variables.count, "UA \(ua): \(answer.body)")
            for (variable, value) in zip(Self.variables, theirs) {
                let ours = NginxUAAudit.value(of: variable, ua: ua, in: tree)
                #expect(ours.text == value, "$\(variable) for UA '\(ua)': nginx says '\(value)'")
                compared += 1
            }
        }
        #expect(compared == Self.uas.count * Self.variables.count)
        // The corpus reaches every kind of entry: spot values that nginx gave too.
        #expect(NginxUAAudit.value(of: "m_order", ua: "MYAPP/1.0", in: tree).text == "exact")
        #expect(NginxUAAudit.value(of: "m_order", ua: "Default", in: tree).text == "escaped-default-key")
        #expect(NginxUAAudit.value(of: "m_include", ua: "Parcelo/4.1", in: tree).text == "included")
        #expect(NginxUAAudit.value(of: "m_chain", ua: "x darwin/23", in: tree).text == "chain-ci")
        #expect(NginxUAAudit.value(of: "m_words", ua: "TheCollectorX/1", in: tree).text == "0")
    }

    /// Server-level `if`s from an included file, `set` inside an `if` on the UA, a whitelist
    /// map acted on in one location, `break`, and a limit zone keyed on the UA (which a `return`
    /// in the rewrite phase would never reach): the status each UA gets on each path is the one
    /// nginx answers.
    static let rewriteHTTP = #"""
        map $http_user_agent $bad_bot {
            default 0;
            "~*\bCollector\b" 3;
            "~*\bCosmos\b"    3;
        }
        map $http_user_agent $is_app {
            default 0;
            "~^Parcelo/"           1;
            "~CFNetwork/.*Darwin/" 1;
        }
        map $http_user_agent $bot_key {
            default "";
            "~*crawler" $binary_remote_addr;
        }
        limit_req_zone $bot_key zone=bots:1m rate=1r/m;
        limit_req_status 429;
        """#
    static let rewriteServer = #"""
        include BLOCKBOTS;
        set $ua_block 0;
        if ($http_user_agent ~* "darwin/2[0-2]") { set $ua_block 1; }
        location /api/ {
            if ($is_app = 0) { return 403; }
            return 200 "ok";
        }
        location /web/ {
            if ($ua_block) { return 410; }
            return 200 "ok";
        }
        location /free/ {
            break;
            if ($is_app = 0) { return 403; }
            return 200 "ok";
        }
        location /slow/ {
            limit_req zone=bots;
            empty_gif;
        }
        location / { return 200 "ok"; }
        """#
    static let rewriteUAs = [
        "Parcelo/4.1.0 (iPhone; iOS 17.4; Scale/3.00)", "Parcelo/410 CFNetwork/1494.0.7 Darwin/23.4.0",
        "Parcelo/410 CFNetwork/1335.0.3 Darwin/21.6.0", "Cosmos/2.0 (iPhone; iOS 17.4; Scale/3.00)",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Parcelo/4.1.0",
        "SomeCrawler/1.0", "",
    ]

    @Test(.requires(.nginx)) func statusesAreNginxsOwn() throws {
        guard let binary = ExternalTool.find(.nginx, test: "the nginx rewrite semantics test") else { return }
        let files = try Scratch()
        let blockbots = try files.write("blockbots.inc", "if ($bad_bot = 3) {\n    return 444;\n}\n")
        let nginx = try LiveNginx(
            binary: binary, locations: Self.rewriteServer.replacingOccurrences(of: "BLOCKBOTS", with: blockbots),
            http: Self.rewriteHTTP)
        let tree = try NginxConfigTree.load(path: nginx.dir.path("nginx.conf"))
        let tested = Self.rewriteUAs.map { NginxUAAudit.TestedUA(ua: $0, className: "app") }
        let audit = NginxUAAudit.evaluate(tree, uas: tested)
        var differing: [String] = []
        for ua in Self.rewriteUAs {
            for path in ["/api/x", "/web/x", "/free/x", "/x", "/slow/x", "/slow/y"] {
                let location = path == "/x" ? "/" : "/" + path.split(separator: "/")[0] + "/"
                let finding = audit.findings.first { finding in
                    finding.uas.contains { $0.ua == ua }
                        && (finding.locations.isEmpty || finding.locations.contains(location))
                }
                // `break` stops the `return 200` too: no content there, so 404.
                var ours = finding?.status ?? (location == "/free/" ? 404 : 200)
                // A rate limit of 1 a minute lets the first request through.
                if case .rateLimited? = finding?.action, path == "/slow/x" { ours = 200 }
                let theirs = try nginx.answer(path, ua: ua).status
                if ours != theirs { differing.append("\(path) with '\(ua)': nginx \(theirs), uaaudit \(ours)") }
            }
        }
        #expect(differing == [])
        // Each rule is named by its own lines: the entry or condition that decides, what acts.
        let conf = try String(contentsOfFile: nginx.dir.path("nginx.conf"), encoding: .utf8)
        func at(_ text: String, after: String = "") -> String {
            let lines = conf.components(separatedBy: "\n")
            let start = after.isEmpty ? 0 : (lines.firstIndex { $0.contains(after) } ?? 0)
            return "nginx.conf:\((lines[start...].firstIndex { $0.contains(text) } ?? -1) + 1)"
        }
        let got = audit.findings.map { finding in
            let places =
                finding.decidedBy.map(\.place) + [finding.condition?.place, finding.actedOnBy.place].compactMap { $0 }
            let named = places.map { "\(($0.file as NSString).lastPathComponent):\($0.line)" }
            return named.joined(separator: " ") + " \(finding.status) \(finding.locations) "
                + "\(finding.uas.map { Self.rewriteUAs.firstIndex(of: $0.ua) ?? -1 })"
        }
        let uaIf = at(#"if ($http_user_agent ~* "darwin/2[0-2]")"#)
        let expected = [
            // `if (…) { return …; }` on one line: the `if` and the `return` both there.
            "\(uaIf) \(at("if ($ua_block)")) \(at("if ($ua_block)")) 410 [\"/web/\"] [2]",
            "\(at(#""~*\bCosmos\b""#)) blockbots.inc:1 blockbots.inc:2 444 [] [3]",
            "\(at("default 0;", after: "$is_app")) \(at("if ($is_app = 0)")) \(at("if ($is_app = 0)")) 403 "
                + "[\"/api/\"] [4, 5, 6]",
            "\(at("crawler")) \(at("limit_req zone=bots")) 429 [\"/slow/\"] [5]",
        ]
        #expect(got == expected)
    }
}
