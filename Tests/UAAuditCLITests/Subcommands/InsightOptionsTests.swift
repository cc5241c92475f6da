import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct InsightOptionsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func settings(_ words: [String], config: RunConfig.InsightChoice? = nil) throws(CLIError) -> InsightSettings
    {
        let args: Arguments
        do {
            args = try Arguments(words, options: InsightOptions.options)
        } catch {
            throw error
        }
        return try InsightOptions.settings(
            args, config: config, format: try! BuiltinFormats.named("ua_log"), rules: RuleSet.builtin())
    }

    @Test func theShippedCronConfigGivesTheDefaultsAndBothDriftAlerts() throws {
        let config = try RunConfig.load(path: Self.repo.appendingPathComponent("cron/uaaudit.json").path)
        let settings = try Self.settings([], config: config.insight)
        #expect(settings.clientKey == "remote_addr")
        #expect(settings.appClasses == ["urlsession", "webview"])
        #expect(settings.baselineHours == 24)
        #expect(
            settings.shareDrop == Threshold(parsing: "0.5")! && settings.newFamilyShare == Threshold(parsing: "0.05")!)
        #expect(!settings.showClientKeys)
    }

    @Test func flagsOverrideTheConfig() throws {
        var config = RunConfig.InsightChoice()
        config.clientKey = "remote_addr"
        config.baselineHours = 6
        let settings = try Self.settings(
            [
                "--client-key", "$remote_user", "--baseline-hours", "0", "--app-classes", "webview",
                "--show-client-keys",
            ],
            config: config)
        #expect(settings.clientKey == "remote_user")
        #expect(settings.baselineHours == 0)
        #expect(settings.appClasses == ["webview"])
        #expect(settings.showClientKeys)
        #expect(try Self.settings(["--client-key", "none"]).clientKey == nil)
    }

    @Test(arguments: [
        (["--client-key", "http_x_device_id"], "the client key $http_x_device_id is not in the log format"),
        (["--app-classes", "urlsession,inconsistent"], "app class 'inconsistent' is not a class of the rules"),
        (["--app-classes", "mobile"], "app class 'mobile' is not a class of the rules"),
        (["--alert-share-drop", "half"], "--alert-share-drop takes a share from 0 to 1"),
        (["--baseline-hours", "-1"], "--baseline-hours takes a whole number from 0 to 8784"),
    ])
    func mistakesSayWhatToDo(words: [String], message: String) {
        #expect {
            _ = try Self.settings(words)
        } throws: { error in
            (error as? CLIError)?.message.hasPrefix(message) == true
        }
    }
}
