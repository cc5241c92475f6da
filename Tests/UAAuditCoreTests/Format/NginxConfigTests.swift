import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct NginxConfigTests {
    /// A config like an operator's: several formats, pieces over several lines, comments, includes.
    static let fullConfig = #"""
        user www-data;
        include /etc/nginx/modules-enabled/*.conf;

        http {
            # log_format commented '$time_local "$http_user_agent"';
            log_format  ua_log  '$remote_addr - $remote_user [$time_local] "$request" '
                                '$status $body_bytes_sent "$http_referer" '  # a comment between pieces
                                '"$http_user_agent" rt=$request_time uct="$upstream_connect_time" '
                                "uht=\"$upstream_header_time\" urt=\"$upstream_response_time\"";
            log_format main '$remote_addr [$time_local] "$http_user_agent"';
            include conf.d/*.conf;
            access_log /var/log/nginx/access.log ua_log;
        }
        """#

    static let fullConfigIncludes = ["/etc/nginx/modules-enabled/*.conf", "conf.d/*.conf"]

    static func read(_ name: String, _ config: String, path: String = "nginx.conf") throws -> LogFormat {
        try NginxConfig.logFormat(named: name, config: Array(config.utf8), path: path)
    }

    @Test func multiPieceFormatEqualsTheBuiltin() throws {
        let format = try Self.read("ua_log", Self.fullConfig)
        #expect(format.string == BuiltinFormats.uaLog)
        #expect(format.segments == (try BuiltinFormats.named("ua_log")).segments)
        #expect(format.name == "ua_log")
        #expect(format.escape == .default)
    }

    @Test func anotherFormatOfTheSameConfig() throws {
        let format = try Self.read("main", Self.fullConfig)
        #expect(format.string == #"$remote_addr [$time_local] "$http_user_agent""#)
        #expect(format.name == "main")
    }

    @Test func unknownNameListsTheNamesFoundAndTheIncludes() throws {
        // The commented-out log_format is not a name that was found; config text alone cannot
        // follow its includes, so the error names them.
        #expect(
            throws: FormatError.notInConfig(
                name: "other", path: "nginx.conf", found: ["ua_log", "main"], includes: Self.fullConfigIncludes)
        ) {
            try Self.read("other", Self.fullConfig)
        }
    }

    @Test func combinedIsAlwaysKnown() throws {
        // nginx predefines it: a config that does not define it still has it.
        #expect(try Self.read("combined", Self.fullConfig).string == BuiltinFormats.combined)
    }

    @Test func noLogFormatAtAll() throws {
        #expect(throws: FormatError.notInConfig(name: "main", path: "empty.conf", found: [], includes: [])) {
            try Self.read("main", "events {}\nhttp { access_log off; }\n", path: "empty.conf")
        }
    }

    @Test func escapeJSON() throws {
        let config = #"""
            log_format api escape=json '{"time":"$time_iso8601","ua":"$http_user_agent",'
                                       '"status":$status}';
            """#
        let format = try Self.read("api", config)
        #expect(format.escape == .json)
        #expect(format.string == #"{"time":"$time_iso8601","ua":"$http_user_agent","status":$status}"#)
    }

    @Test(arguments: [("default", EscapeMode.default), ("json", EscapeMode.json), ("none", EscapeMode.none)])
    func escapeParameter(value: String, mode: EscapeMode) throws {
        let format = try Self.read("f", "log_format f escape=\(value) '$msec \"$http_user_agent\"';")
        #expect(format.escape == mode)
        #expect(format.string == #"$msec "$http_user_agent""#)
    }

    @Test func badEscapeParameterNamesValueAndLine() {
        let config = "# first line\nlog_format bad\n    escape=xml '$msec $http_user_agent';\n"
        #expect(throws: FormatError.badEscapeParameter(value: "xml", path: "nginx.conf", line: 2)) {
            try Self.read("bad", config)
        }
    }

    @Test func escapesInsideQuotes() throws {
        // nginx turns \" \' \\ \t \r \n into their bytes and keeps any other backslash.
        let config = #"log_format esc "$time_local\t\"$http_user_agent\"\\ \'x\' \q\r\n";"#
        let format = try Self.read("esc", config)
        #expect(format.string == "$time_local\t\"$http_user_agent\"\\ 'x' \\q\r\n")
    }

    @Test func escapesInUnquotedWords() throws {
        // nginx unescapes every word alike; an escaped space or ';' does not end one (and, like
        // any other escaped byte, keeps its backslash).
        let config = #"log_format tab $time_local\t$http_user_agent\ \;\q;"#
        #expect(try Self.read("tab", config).string == "$time_local\t$http_user_agent\\ \\;\\q")
    }

    @Test func quotesHashesAndBracesInsideQuotes() throws {
        let config = #"""
            log_format h '# {$time_local} "$http_user_agent";' ; # not part of it
            log_format d "it's $msec {$http_user_agent}";
            """#
        #expect(try Self.read("h", config).string == #"# {$time_local} "$http_user_agent";"#)
        #expect(try Self.read("d", config).string == "it's $msec {$http_user_agent}")
    }

    @Test func unquotedPiecesAreConcatenated() throws {
        let format = try Self.read("plain", "log_format plain $time_local|$http_user_agent  \"|\" $status;")
        #expect(format.string == "$time_local|$http_user_agent|$status")
    }

    @Test func firstFormatWithTheNameWins() throws {
        let config = "log_format a '$msec $http_user_agent';\nlog_format a '$time_local $http_user_agent';\n"
        #expect(try Self.read("a", config).string == "$msec $http_user_agent")
    }

    @Test func formatErrorsPassThrough() {
        #expect(throws: FormatError.noUserAgentVariable(format: "$time_local $status")) {
            try Self.read("x", "log_format x '$time_local' ' $status';")
        }
    }

    @Test func unterminatedQuoteNamesTheLineItOpensOn() {
        let config = #"""
            # line 1
            http {
                log_format broken '$time_local "$http_user_agent";
                access_log off;
            }
            """#
        #expect(
            throws: FormatError.configSyntax(path: "nginx.conf", line: 3, message: "unterminated quoted string")
        ) {
            try Self.read("broken", config)
        }
    }

    /// What `nginx -t` refuses, as it words it: a block never closed, a `}` with no block, a
    /// directive without its `;` before a `}`. A balanced config with `${var}` still reads.
    @Test func unbalancedBlocksAreSyntaxErrorsAtTheirLine() throws {
        let format = "log_format x '$time_local \"$http_user_agent\"';"
        let cases: [(String, Int, String)] = [
            ("events {}\nhttp {\n \(format)\n server {\n }\n", 6, "unexpected end of file, expecting \"}\""),
            ("events {}\nhttp {\n \(format)\n}\n}\n", 5, "unexpected \"}\""),
            ("http {\n \(format)\n server { return 200 ok }\n}\n", 3, "unexpected \"}\" (a \";\" missing?)"),
            (
                "events {}\nhttp { \(format) }\nworker_processes 1", 3,
                "unexpected end of file, expecting \";\" or \"}\""
            ),
            ("events {}\nhttp { \(format); }\n", 2, "unexpected \";\""),
            ("events {}\nhttp { server { { } } }\n", 2, "unexpected \"{\""),
            ("events {}\nhttp { \(format) };\n", 2, "unexpected \";\""),
        ]
        for (config, line, message) in cases {
            #expect(throws: FormatError.configSyntax(path: "nginx.conf", line: line, message: message)) {
                try Self.read("x", config)
            }
        }
        let balanced = "http {\n \(format)\n map $uri ${name}_x { default 1; }\n server { location / { } }\n}\n"
        #expect(try Self.read("x", balanced).name == "x")
    }

    @Test func escapedNewlineInQuotesStillCountsAsALine() throws {
        // nginx counts every LF, also one after a backslash inside quotes, so `b` is on line 3.
        let config =
            "log_format a '$time_local \\\n\"$http_user_agent\"';\nlog_format b escape=xml '$msec $http_user_agent';\n"
        #expect(try Self.read("a", config).string == "$time_local \\\n\"$http_user_agent\"")
        #expect(throws: FormatError.badEscapeParameter(value: "xml", path: "nginx.conf", line: 3)) {
            try Self.read("b", config)
        }
    }

    @Test func unquotedBracedVariables() throws {
        // nginx keeps `${` and `}` inside an unquoted word (ngx_conf_read_token: `ch == '{' && variable`).
        let format = try Self.read("braces", "log_format braces ${time_local}|${http_user_agent};")
        #expect(format.string == "${time_local}|${http_user_agent}")
    }

    // MARK: Reading from a file

    @Test func readsAFile() throws {
        let dir = try TempDirectory()
        let path = try dir.write("nginx.conf", Array(Self.fullConfig.utf8))
        #expect(try NginxConfig.logFormat(named: "ua_log", path: path).string == BuiltinFormats.uaLog)
        // Read from a file, its includes are followed (here they match nothing of note).
        #expect(throws: FormatError.notInConfig(name: "x", path: path, found: ["ua_log", "main"], includes: [])) {
            try NginxConfig.logFormat(named: "x", path: path)
        }
    }

    @Test func missingFileIsUnreadable() {
        let path = "/nonexistent-uaaudit-test/nginx.conf"
        #expect(throws: FormatError.unreadableConfig(path: path, reason: "No such file or directory")) {
            try NginxConfig.logFormat(named: "ua_log", path: path)
        }
    }

    @Test func directoryIsUnreadable() throws {
        let dir = try TempDirectory()
        let path = dir.url.path
        #expect(
            throws: FormatError.unreadableConfig(
                path: path,
                reason: "is a directory, not a regular file; uaaudit reads its configuration, rules, secrets and "
                    + "reports only from regular files")
        ) {
            try NginxConfig.logFormat(named: "ua_log", path: path)
        }
    }
}
