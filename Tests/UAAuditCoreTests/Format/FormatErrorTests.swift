import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct FormatErrorTests {
    @Test(arguments: [
        (
            FormatError.invalidVariable(format: "$ $x", column: 1),
            "log format has a '$' with no variable name at column 1: $ $x"
        ),
        (
            .unterminatedBrace(format: "a ${b", column: 3),
            "log format has '${' with no closing '}' at column 3: a ${b"
        ),
        (
            .adjacentVariables(first: "a", second: "b"),
            "log format has $a immediately followed by $b; nothing separates them, so their values cannot be told apart"
        ),
        (
            .noTimeVariable(format: "$http_user_agent"),
            "log format has no $time_local, $time_iso8601 or $msec, so requests cannot be counted per hour: $http_user_agent"
        ),
        (
            .noUserAgentVariable(format: "$msec"),
            "log format has no $http_user_agent, so there is nothing to audit: $msec"
        ),
        (
            .unknownBuiltin(name: "main", known: ["ua_log", "combined"]),
            "no built-in log format named 'main' (built-in: ua_log, combined); "
                + "use --log-format 'STRING' or --nginx-conf PATH --format NAME"
        ),
        (
            .notInConfig(name: "main", path: "/etc/nginx/nginx.conf", found: ["ua_log", "combined2"], includes: []),
            "/etc/nginx/nginx.conf has no log_format named 'main' (log_formats found: ua_log, combined2)"
        ),
        (
            .notInConfig(name: "main", path: "n.conf", found: [], includes: []),
            "n.conf has no log_format named 'main' (log_formats found: none)"
        ),
        (
            .notInConfig(name: "main", path: "n.conf", found: ["a"], includes: ["conf.d/*.conf", "/etc/nginx/x.conf"]),
            "n.conf has no log_format named 'main' (log_formats found: a); its include directives are not followed "
                + "(conf.d/*.conf, /etc/nginx/x.conf): if the log_format is in one of them, give that file to --nginx-conf"
        ),
        (
            .unreadableConfig(path: "/x.conf", reason: "No such file or directory"),
            "cannot read nginx config /x.conf: No such file or directory"
        ),
        (
            .configSyntax(path: "n.conf", line: 7, message: "unterminated quoted string"),
            "n.conf:7: unterminated quoted string"
        ),
        (
            .badEscapeParameter(value: "xml", path: "n.conf", line: 2),
            "n.conf:2: unknown escape parameter 'xml' (expected default, json or none)"
        ),
    ])
    func descriptionNamesTheBadValue(error: FormatError, text: String) {
        #expect(error.description == text)
    }
}
