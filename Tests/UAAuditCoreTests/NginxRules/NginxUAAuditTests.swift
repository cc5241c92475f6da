import Testing

@testable import UAAuditCore

/// nginx's UA rules evaluated for one UA at a time: what decides, what acts, and what cannot be
/// told from the UA. (The same semantics against a real nginx: EndToEndTests' NginxMapSemanticsTests.)
@Suite struct NginxUAAuditTests {
    /// The http block's text starts on line 3 of nginx.conf.
    static func tree(_ http: String, files: [String: String] = [:]) throws -> NginxConfigTree {
        var dump = "# configuration file /etc/nginx/nginx.conf:\nevents {}\nhttp {\n\(http)\n}\n"
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            dump += "\n# configuration file \(name):\n\(text)\n"
        }
        return try NginxConfigTree.fromDump(Array(dump.utf8))
    }

    static func summary(_ audit: NginxUAAudit) -> [String] {
        audit.findings.map { finding in
            let decided = finding.decidedBy.map { "\($0.place)" }.joined(separator: ",")
            return "\(decided) -> \(finding.actedOnBy.place) \(finding.status) \(finding.locations) "
                + finding.uas.map(\.ua).joined(separator: "|")
        }
    }

    @Test func aSetInsideAnIfOnTheUAIsDecidedByThatIf() throws {
        let tree = try Self.tree(
            """
            server {
                set $block 0;
                if ($http_user_agent ~* "darwin/2[0-2]") {
                    set $block 1;
                }
                location /web/ {
                    if ($block = 1) { return 410; }
                }
                location /api/ { return 200; }
            }
            """)
        let audit = NginxUAAudit.evaluate(
            tree, uas: [.init(ua: "A/1 CFNetwork/1 Darwin/21.6.0", className: "x"), .init(ua: "A/1", className: "x")])
        #expect(
            Self.summary(audit) == [
                "/etc/nginx/nginx.conf:5 -> /etc/nginx/nginx.conf:9 410 [\"/web/\"] A/1 CFNetwork/1 Darwin/21.6.0"
            ])
        #expect(audit.uaConditions == 2)
        #expect(audit.uaMaps == 0)
    }

    @Test func breakStopsTheLevelAndAServerReturnComesFirst() throws {
        let tree = try Self.tree(
            """
            map $http_user_agent $bad { default 0; "~*ninja" 1; }
            server {
                if ($bad) { return 444; }
                location / { if ($http_user_agent ~ ^Ninja) { return 403; } }
                location /free/ { break; if ($http_user_agent ~ ^A) { return 403; } }
            }
            """)
        let audit = NginxUAAudit.evaluate(
            tree, uas: [.init(ua: "Ninja/1", className: "x"), .init(ua: "A/1", className: "x")])
        #expect(Self.summary(audit) == ["/etc/nginx/nginx.conf:3 -> /etc/nginx/nginx.conf:5 444 [] Ninja/1"])
    }

    @Test func exactKeysComeBeforeRegexesAndIgnoreCase() throws {
        let tree = try Self.tree(
            """
            map $http_user_agent $v {
                "~^MyApp" regex;
                MYAPP/1 exact;
                \\default escaped;
                default none;
            }
            """)
        let cases: [(String, String?)] = [
            ("myapp/1", "exact"), ("MyApp/1", "exact"), ("MyApp/2", "regex"), ("DEFAULT", "escaped"), ("x", "none"),
            ("", "none"),
        ]
        for (ua, expected) in cases {
            #expect(NginxUAAudit.value(of: "v", ua: ua, in: tree).text == expected, "UA \(ua)")
        }
    }

    @Test func hostnamesMasksTakeTheLongestAndBareDotMatchesTheName() throws {
        let tree = try Self.tree(
            """
            map $http_user_agent $v {
                hostnames;
                *.example.com star;
                .a.example.com dot;
                app.* suffix;
                default none;
            }
            """)
        let cases: [(String, String)] = [
            ("x.example.com", "star"), ("example.com", "none"), ("b.a.example.com", "dot"), ("a.example.com", "dot"),
            ("app.anything", "suffix"), ("X.EXAMPLE.COM.", "star"),
        ]
        for (ua, expected) in cases {
            #expect(NginxUAAudit.value(of: "v", ua: ua, in: tree).text == expected, "UA \(ua)")
        }
    }

    @Test func aValueThatDependsOnMoreThanTheUAIsUnknownAndSaysOnWhat() throws {
        let tree = try Self.tree(
            """
            map $http_user_agent $key { default ""; "~bot" "$binary_remote_addr"; }
            map "$http_user_agent:$host" $both { default 0; "~^Bot:" 1; }
            server {
                if ($both) { return 403; }
            }
            """)
        #expect(NginxUAAudit.value(of: "key", ua: "A", in: tree).text == "")
        let bot = NginxUAAudit.value(of: "key", ua: "a bot", in: tree)
        #expect(bot.text == nil)
        #expect(bot.dependsOn == ["$binary_remote_addr"])
        #expect(bot.fromUA)
        let audit = NginxUAAudit.evaluate(tree, uas: [.init(ua: "Bot/1", className: "x")])
        #expect(audit.findings.isEmpty)
        #expect(audit.dependsOn.map { "\($0.place) \($0.variables)" } == ["/etc/nginx/nginx.conf:6 [\"$host\"]"])
    }

    @Test func limitZonesCountOnlyANonEmptyKeyAndALevelsOwnReplaceTheInherited() throws {
        let tree = try Self.tree(
            """
            map $http_user_agent $bot_key { default ""; "~*crawler" $binary_remote_addr; }
            limit_req_zone $bot_key zone=bots:1m rate=1r/s;
            limit_req_zone $binary_remote_addr zone=all:1m rate=9r/s;
            limit_conn_zone $bot_key zone=conns:1m;
            server {
                limit_req zone=bots;
                limit_conn_status 429;
                location /a/ { }
                location /b/ { limit_req zone=all; }
                location /c/ { limit_conn conns 1; }
            }
            """)
        let audit = NginxUAAudit.evaluate(
            tree, uas: [.init(ua: "Crawler/1", className: "x"), .init(ua: "App/1", className: "x")])
        #expect(
            Self.summary(audit) == [
                "/etc/nginx/nginx.conf:3 -> /etc/nginx/nginx.conf:8 503 [\"/a/\", \"/c/\"] Crawler/1",
                "/etc/nginx/nginx.conf:3 -> /etc/nginx/nginx.conf:12 429 [\"/c/\"] Crawler/1",
            ])
    }

    @Test func aRegexNginxWouldRefuseIsNamedNotGuessed() throws {
        let tree = try Self.tree(#"map $http_user_agent $v { default 0; "~(unclosed" 1; "~App" 2; }"#)
        let audit = NginxUAAudit.evaluate(tree, uas: [.init(ua: "App/1", className: "x")])
        #expect(audit.problems.count == 1)
        #expect(
            audit.problems.first?.hasPrefix("/etc/nginx/nginx.conf:3: the regular expression does not compile") == true)
        #expect(NginxUAAudit.value(of: "v", ua: "App/1", in: tree).text == nil)
    }

    @Test func directivesAreShownAsTheyCouldBeWritten() {
        let cases: [([String], String)] = [
            (["if", "($bad_bot", "=", "3", ")"], "if ($bad_bot = 3)"),
            (["if", "(", "$http_user_agent", "~*", "a b", ")"], "if ($http_user_agent ~* \"a b\")"),
            (["~*(?:\\b)Cosmos(?:\\b)", "3"], "~*(?:\\b)Cosmos(?:\\b) 3"),
            (["~^a{2}", "say \"hi\""], "\"~^a{2}\" \"say \\\"hi\\\"\""),
            (["default", ""], "default \"\""),
        ]
        for (words, text) in cases { #expect(NginxUAAudit.text(of: words) == text) }
    }

    @Test func conditionsParseAsNginxsRewriteModuleDoes() {
        let cases: [([String], String)] = [
            (["if", "($a)"], "truthy a"),
            (["if", "(", "$A", ")"], "truthy a"),
            (["if", "($a", "=", "0)"], "equals a 0 false"),
            (["if", "($a", "!=", "x", ")"], "equals a x true"),
            (["if", "($http_user_agent", "!~*", "(bot|spider))"], "regex http_user_agent (bot|spider) true"),
            (["if", "(-f", "$request_filename)"], "other"),
            (["if", "($a", "~", "(x", ")"], "regex a (x false problem"),
        ]
        for (words, expected) in cases {
            let got: String
            switch NginxCondition(words: words) {
            case .truthy(let name): got = "truthy \(name)"
            case .equals(let name, let text, let negated): got = "equals \(name) \(text) \(negated)"
            case .regex(let name, _, let source, let negated, let problem):
                got = "regex \(name) \(source) \(negated)" + (problem == nil ? "" : " problem")
            case .other: got = "other"
            }
            #expect(got == expected, "\(words)")
        }
    }
}
