import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct BuiltinFormatsTests {
    /// The segments both built-ins share, up to and including the user agent.
    static let combinedPrefix: [Segment] = [
        variable("remote_addr", .other), lit(" - "),
        variable("remote_user", .other), lit(" ["),
        variable("time_local", .timeLocal), lit(#"] ""#),
        variable("request", .request), lit(#"" "#),
        variable("status", .status), lit(" "),
        variable("body_bytes_sent", .digits), lit(#" ""#),
        variable("http_referer", .other), lit(#"" ""#),
        variable("http_user_agent", .userAgent),
    ]

    @Test func uaLogString() {
        #expect(
            BuiltinFormats.uaLog
                == #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "#
                + #""$http_referer" "$http_user_agent" rt=$request_time uct="$upstream_connect_time" "#
                + #"uht="$upstream_header_time" urt="$upstream_response_time""#)
    }

    @Test func uaLogCompiles() throws {
        let format = try BuiltinFormats.named("ua_log")
        #expect(format.name == "ua_log")
        #expect(format.escape == .default)
        #expect(format.string == BuiltinFormats.uaLog)
        #expect(
            format.segments == Self.combinedPrefix + [
                lit(#"" rt="#), variable("request_time", .decimal),
                lit(#" uct=""#), variable("upstream_connect_time", .other),
                lit(#"" uht=""#), variable("upstream_header_time", .other),
                lit(#"" urt=""#), variable("upstream_response_time", .other),
                lit(#"""#),
            ])
    }

    @Test func combinedCompiles() throws {
        let format = try BuiltinFormats.named("combined")
        #expect(format.name == "combined")
        #expect(format.escape == .default)
        #expect(
            format.string
                == #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "#
                + #""$http_referer" "$http_user_agent""#)
        #expect(format.segments == Self.combinedPrefix + [lit(#"""#)])
    }

    @Test func names() {
        #expect(BuiltinFormats.names == ["ua_log", "combined"])
    }

    @Test(arguments: ["main", "", "UA_LOG", "combined ", "ua-log"])
    func unknownNameListsTheBuiltins(_ name: String) {
        #expect(throws: FormatError.unknownBuiltin(name: name, known: ["ua_log", "combined"])) {
            try BuiltinFormats.named(name)
        }
    }
}
