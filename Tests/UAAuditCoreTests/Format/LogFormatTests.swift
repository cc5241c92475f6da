import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A literal segment from text.
func lit(_ text: String) -> Segment { .literal(Array(text.utf8)) }

/// A variable segment with the role its name has.
func variable(_ name: String, _ role: FieldRole) -> Segment { .variable(name: name, role: role) }

@Suite struct LogFormatTests {
    struct CompileCase: Sendable, CustomTestStringConvertible {
        let format: String
        let segments: [Segment]
        var testDescription: String { format }
    }

    @Test(arguments: [
        CompileCase(
            format: #"$time_local "$http_user_agent""#,
            segments: [
                variable("time_local", .timeLocal), lit(#" ""#), variable("http_user_agent", .userAgent), lit(#"""#),
            ]),
        // A literal before the first variable, and a variable that ends the format.
        CompileCase(
            format: "[$time_iso8601] $http_user_agent",
            segments: [
                lit("["), variable("time_iso8601", .timeISO8601), lit("] "),
                variable("http_user_agent", .userAgent),
            ]),
        // `${name}` lets a name be followed by name characters.
        CompileCase(
            format: "${msec}ms ${http_user_agent}_x",
            segments: [
                variable("msec", .msec), lit("ms "), variable("http_user_agent", .userAgent), lit("_x"),
            ]),
        // Without braces the name runs on: `$msecms` is one (unknown) variable.
        CompileCase(
            format: "$msecms $msec $http_user_agent",
            segments: [
                variable("msecms", .other), lit(" "), variable("msec", .msec), lit(" "),
                variable("http_user_agent", .userAgent),
            ]),
        // A name ends at the first byte that is not [A-Za-z0-9_].
        CompileCase(
            format: "$status-$request_time.$time_local|$http_user_agent/$request_uri?$uri",
            segments: [
                variable("status", .status), lit("-"), variable("request_time", .decimal), lit("."),
                variable("time_local", .timeLocal), lit("|"), variable("http_user_agent", .userAgent), lit("/"),
                variable("request_uri", .uri), lit("?"), variable("uri", .uri),
            ]),
        // Every role in one format.
        CompileCase(
            format: "$remote_addr $msec $request $document_uri $status $bytes_sent $request_time $http_user_agent",
            segments: [
                variable("remote_addr", .other), lit(" "), variable("msec", .msec), lit(" "),
                variable("request", .request), lit(" "), variable("document_uri", .uri), lit(" "),
                variable("status", .status), lit(" "), variable("bytes_sent", .digits), lit(" "),
                variable("request_time", .decimal), lit(" "), variable("http_user_agent", .userAgent),
            ]),
        // Bytes that are not ASCII are literal bytes.
        CompileCase(
            format: "é $time_local « $http_user_agent »",
            segments: [
                lit("é "), variable("time_local", .timeLocal), lit(" « "), variable("http_user_agent", .userAgent),
                lit(" »"),
            ]),
    ])
    func compilesSegments(_ c: CompileCase) throws {
        let format = try LogFormat(c.format)
        #expect(format.segments == c.segments)
        #expect(format.string == c.format)
        #expect(format.escape == .default)
        #expect(format.name == nil)
    }

    @Test func keepsNameAndEscapeMode() throws {
        let format = try LogFormat("$time_local $http_user_agent", escape: .json, name: "api")
        #expect(format.name == "api")
        #expect(format.escape == .json)
        #expect(format.variableNames == ["time_local", "http_user_agent"])
    }

    @Test func variableNamesInOrder() throws {
        let format = try LogFormat(#"${remote_addr} [$time_local] "$request" "${http_user_agent}" $remote_addr"#)
        #expect(format.variableNames == ["remote_addr", "time_local", "request", "http_user_agent", "remote_addr"])
    }

    @Test(arguments: ["$time_local $http_user_agent", "$time_iso8601 $http_user_agent", "$msec $http_user_agent"])
    func anyOneTimeVariableIsEnough(_ string: String) throws {
        #expect(try LogFormat(string).variableNames.count == 2)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let format: String
        let error: FormatError
        var testDescription: String { format }
    }

    @Test(arguments: [
        // `$` with no name: the column is the 1-based byte column of the `$`.
        ErrorCase(
            format: "$ $time_local $http_user_agent",
            error: .invalidVariable(format: "$ $time_local $http_user_agent", column: 1)),
        ErrorCase(
            format: "$time_local $http_user_agent $",
            error: .invalidVariable(format: "$time_local $http_user_agent $", column: 30)),
        ErrorCase(
            format: "$time_local $http_user_agent $-",
            error: .invalidVariable(format: "$time_local $http_user_agent $-", column: 30)),
        ErrorCase(
            format: "$time_local $$http_user_agent",
            error: .invalidVariable(format: "$time_local $$http_user_agent", column: 13)),
        ErrorCase(
            format: "$time_local ${} $http_user_agent",
            error: .invalidVariable(format: "$time_local ${} $http_user_agent", column: 13)),
        ErrorCase(
            format: "$time_local ${a-b} $http_user_agent",
            error: .invalidVariable(format: "$time_local ${a-b} $http_user_agent", column: 13)),
        ErrorCase(
            format: "$time_local ${a b} $http_user_agent",
            error: .invalidVariable(format: "$time_local ${a b} $http_user_agent", column: 13)),
        // `${` with no `}`.
        ErrorCase(
            format: "$time_local ${http_user_agent",
            error: .unterminatedBrace(format: "$time_local ${http_user_agent", column: 13)),
        ErrorCase(format: "${", error: .unterminatedBrace(format: "${", column: 1)),
        // Two variables with nothing between them.
        ErrorCase(
            format: "$time_local$http_user_agent",
            error: .adjacentVariables(first: "time_local", second: "http_user_agent")),
        ErrorCase(
            format: "${time_local}${http_user_agent}",
            error: .adjacentVariables(first: "time_local", second: "http_user_agent")),
        ErrorCase(
            format: "$http_user_agent [$time_local] ${remote_addr}$remote_user",
            error: .adjacentVariables(first: "remote_addr", second: "remote_user")),
        // Missing variables; the time is checked first.
        ErrorCase(format: #""$http_user_agent""#, error: .noTimeVariable(format: #""$http_user_agent""#)),
        ErrorCase(format: "[$time_local] $status", error: .noUserAgentVariable(format: "[$time_local] $status")),
        ErrorCase(format: "$remote_addr $status", error: .noTimeVariable(format: "$remote_addr $status")),
        ErrorCase(format: "", error: .noTimeVariable(format: "")),
        ErrorCase(
            format: "$time_locale $http_user_agent", error: .noTimeVariable(format: "$time_locale $http_user_agent")),
        ErrorCase(
            format: "$time_local $http_user_agents",
            error: .noUserAgentVariable(format: "$time_local $http_user_agents")),
    ])
    func rejectsBadFormats(_ c: ErrorCase) {
        #expect(throws: c.error) { try LogFormat(c.format) }
    }
}
