import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

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

/// What a non-author's review found (issue 33): blocks on one line, a second map of a variable,
/// `rewrite`, a regex nginx gives up on, `limit_req_dry_run`, a comment that reads like
/// `nginx -T`'s header.
@Suite struct NginxUAAuditReviewTests {
    @Test func blocksOnOneLineAreTwoBlocks() throws {
        let tree = try NginxUAAuditTests.tree(
            """
            map $http_user_agent $big { default 0; "~MyApp" 1; }
            server { location /a/ { location /a/x/ { if ($big) { return 418; } } } }
            server { server_name b.test; } server { server_name c.test; if ($http_user_agent ~ Mozilla) { return 403; } }
            server { location /a/ { if ($big) { return 401; } } location /b/ { if ($http_user_agent ~ Mozilla) { return 402; } } }
            """)
        let audit = NginxUAAudit.evaluate(
            tree, uas: [.init(ua: "MyApp/1", className: "x"), .init(ua: "Mozilla/5.0 Other/1", className: "x")])
        let got = audit.findings.map { "\($0.server) \($0.locations) \($0.status) \($0.uas.map(\.ua))" }
        #expect(
            got
                == [
                    "[\"/a/x/\"] 418 [\"MyApp/1\"]", "c.test [] 403 [\"Mozilla/5.0 Other/1\"]",
                    " [\"/a/\"] 401 [\"MyApp/1\"]", " [\"/b/\"] 402 [\"Mozilla/5.0 Other/1\"]",
                ].map { $0.hasPrefix("[") ? " " + $0 : $0 })
        #expect(audit.findings.map { $0.decidedBy.map(\.text) }.last == ["if ($http_user_agent ~ Mozilla)"])
    }

    @Test func theLastMapOfAVariableIsTheOneNginxUses() throws {
        let tree = try NginxUAAuditTests.tree(
            """
            map $http_user_agent $dup { "~MyApp/3" 1; }
            map $http_user_agent $dup { "~Mozilla" 1; }
            """)
        #expect(NginxUAAudit.value(of: "dup", ua: "MyApp/3", in: tree).text == "")
        #expect(NginxUAAudit.value(of: "dup", ua: "Mozilla/5.0", in: tree).text == "1")
    }

    @Test func afterARewriteNothingIsClaimedAndARewriteInAUAIfIsNoted() throws {
        let tree = try NginxUAAuditTests.tree(
            """
            server {
                location /rw/ {
                    if ($http_user_agent ~ Mozilla) { rewrite ^ /c break; }
                    if ($http_user_agent ~ iPhone) { return 403; }
                }
            }
            """)
        let audit = NginxUAAudit.evaluate(
            tree, uas: [.init(ua: "Mozilla/5.0 (iPhone)", className: "x"), .init(ua: "App (iPhone)", className: "x")])
        #expect(audit.findings.map { $0.uas.map(\.ua) } == [["App (iPhone)"]])
        #expect(
            audit.dependsOn.map { "\($0.place) \($0.variables)" } == ["/etc/nginx/nginx.conf:5 [\"the URI (rewrite)\"]"]
        )
    }

    @Test func aRewriteWithoutAFlagGoesOnAndOneWithAFlagThatStopsIsNoted() throws {
        let tree = try NginxUAAuditTests.tree(
            """
            server {
                location /r2 { rewrite ^/r2(.*)$ /r2$1; if ($http_user_agent ~ Darwin) { return 403; } }
                location /r5 { rewrite ^/nomatch$ /zz last; if ($http_user_agent ~ Darwin) { return 406; } }
            }
            """)
        let audit = NginxUAAudit.evaluate(tree, uas: [.init(ua: "A/1 CFNetwork/1 Darwin/23", className: "x")])
        #expect(audit.findings.map { "\($0.status) \($0.locations)" } == ["403 [\"/r2\"]"])
        #expect(audit.dependsOn.map { "\($0.place)" } == ["/etc/nginx/nginx.conf:5"])
    }

    @Test func aRegexThatDoesNotFinishIsA500InAnIfAndTheDefaultInAMap() throws {
        let tree = try NginxUAAuditTests.tree(
            """
            map $http_user_agent $v { default 1; "~^MyApp/1 (a|a)+$" 0; }
            server {
                location /if/ { if ($http_user_agent ~ "(a|a)+$") { return 403; } }
            }
            """)
        let ua = "MyApp/1 " + String(repeating: "a", count: 40) + "!"
        #expect(NginxUAAudit.value(of: "v", ua: ua, in: tree).text == "1")
        let audit = NginxUAAudit.evaluate(tree, uas: [.init(ua: ua, className: "x")])
        #expect(
            audit.findings.map { "\($0.status) \($0.locations) \($0.decidedBy.map(\.place.line))" } == [
                "500 [\"/if/\"] [5]"
            ])
    }

    @Test func aDryRunLimitRejectsNothing() throws {
        let tree = try NginxUAAuditTests.tree(
            """
            map $http_user_agent $k { default ""; "~bot" 1; }
            limit_req_zone $k zone=z:1m rate=1r/m;
            server {
                limit_req zone=z;
                location /dry/ { limit_req_dry_run on; }
                location /wet/ { }
            }
            """)
        let audit = NginxUAAudit.evaluate(tree, uas: [.init(ua: "a bot", className: "x")])
        #expect(audit.findings.map(\.locations) == [["/wet/"]])
    }

    @Test func aCommentThatReadsLikeTheDumpsHeaderStaysInItsFile() throws {
        let dump = """
            # configuration file /etc/nginx/nginx.conf:
            events {}
            http {
                include /etc/nginx/conf.d/*.conf;
            }

            # configuration file /etc/nginx/conf.d/a.conf:
            map $http_user_agent $v {
            # configuration file /tmp/fake.conf:
                default 0;
                "~MyApp" 1;
            }

            # configuration file /etc/nginx/conf.d/empty.conf:

            """
        let tree = try NginxConfigTree.fromDump(Array(dump.utf8))
        let value = NginxUAAudit.value(of: "v", ua: "MyApp/1", in: tree)
        #expect(value.text == "1")
        #expect(value.because.map(\.place.description) == ["/etc/nginx/conf.d/a.conf:4"])
    }
}
