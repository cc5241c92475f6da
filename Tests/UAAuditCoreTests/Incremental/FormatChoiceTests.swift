import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The one place that turns a format choice (scan's flags, run's config) into a format.
@Suite struct FormatChoiceTests {
    @Test func eachKindOfChoiceCompiles() throws {
        #expect(try RunConfig.FormatChoice().compile().name == "ua_log")
        #expect(try RunConfig.FormatChoice(name: "combined").compile().string == BuiltinFormats.combined)
        let json = try RunConfig.FormatChoice(string: "$msec $http_user_agent", escape: .json).compile()
        #expect(json.escape == .json)
        #expect(json.variableNames == ["msec", "http_user_agent"])
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let conf = repo.appendingPathComponent("SampleLogs/nginx.conf").path
        let fromConf = try RunConfig.FormatChoice(name: "ua_log_json", nginxConf: conf).compile()
        #expect(fromConf.escape == .json)
        #expect(fromConf.string == BuiltinFormats.uaLog)
    }

    @Test func aConfigWithoutANameIsAClearError() {
        #expect(throws: FormatError.nginxConfNeedsName(path: "/etc/nginx/nginx.conf")) {
            _ = try RunConfig.FormatChoice(nginxConf: "/etc/nginx/nginx.conf").compile()
        }
    }
}
