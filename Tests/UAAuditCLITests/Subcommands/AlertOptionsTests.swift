import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditCLI
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct AlertOptionsTests {
    static func parse(_ words: [String], environment: [String: String] = [:]) throws -> AlertOptions {
        try AlertOptions.parse(try Arguments(words, options: AlertOptions.options), environment: environment)
    }

    @Test func kindsAndSecretsBelongToTheWebhookBeforeThem() throws {
        let options = try Self.parse(
            [
                "--webhook", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K",
                "--webhook=http://127.0.0.1:9093", "--webhook-kind", "alertmanager",
                "--webhook", "https://oapi.dingtalk.com/robot/send?access_token=T", "--webhook-secret-env", "D",
                "--webhook", "http://10.0.0.1/hook", "--webhook-secret-env=S", "--webhook-kind=feishu",
                "--host", "web-1", "--webhook-timeout", "2.5", "--webhook-retries", "0",
            ], environment: ["S": "secret", "D": "secret2"])
        #expect(
            options.channels == [
                AlertChannel(url: .literal("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K")),
                AlertChannel(kind: .alertmanager, url: .literal("http://127.0.0.1:9093")),
                AlertChannel(
                    url: .literal("https://oapi.dingtalk.com/robot/send?access_token=T"), secret: .environment("D")),
                AlertChannel(kind: .feishu, url: .literal("http://10.0.0.1/hook"), secret: .environment("S")),
            ])
        #expect(options.host == "web-1")
        #expect(options.delivery.timeout == 2.5)
        #expect(options.delivery.retries == 0)
        #expect(options.delivery.userAgent == "uaaudit/\(UAAuditCLI.version)")
    }

    /// --webhook-url-env and --webhook-url-file start a channel as --webhook does, with the
    /// config's url_env and url_file; the kind and secret after them are theirs.
    @Test func urlFromAVariableOrAFileStartsAChannel() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-url-\(UUID().uuidString)")
            .path
        try "https://hooks.slack.com/services/T/B/X\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let options = try Self.parse(
            [
                "--webhook-url-env", "WECOM_URL", "--webhook-kind", "wecom",
                "--webhook-url-file", file,
                "--webhook-url-env=DING_URL", "--webhook-secret-env", "D",
            ],
            environment: [
                "WECOM_URL": "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K",
                "DING_URL": "https://oapi.dingtalk.com/robot/send?access_token=T", "D": "secret",
            ])
        #expect(
            options.channels == [
                AlertChannel(kind: .wecom, url: .environment("WECOM_URL")),
                AlertChannel(url: .file(file)),
                AlertChannel(url: .environment("DING_URL"), secret: .environment("D")),
            ])
    }

    @Test func anUnsetURLVariableOrAMissingURLFileIsAUsageError() {
        for words in [["--webhook-url-env", "NOT_SET_UAAUDIT"], ["--webhook-url-file", "/nonexistent/uaaudit.url"]] {
            #expect(throws: CLIError.self) { _ = try Self.parse(words) }
        }
    }

    @Test func defaultsAreTenSecondsTwoRetriesAndThisHost() throws {
        let options = try Self.parse([])
        #expect(options.channels.isEmpty)
        #expect(options.delivery.timeout == 10)
        #expect(options.delivery.retries == 2)
        #expect(!options.host.isEmpty)
    }

    static let errors: [([String], String)] = [
        (
            ["--webhook-kind", "slack"],
            "--webhook-kind belongs to a channel: give it after the --webhook, --webhook-url-env or --webhook-url-file it is for"
        ),
        (
            ["--webhook", "http://h/", "--webhook-kind", "slack", "--webhook-kind", "generic"],
            "--webhook-kind given twice for one channel"
        ),
        (
            [
                "--webhook", "http://h/", "--webhook-kind", "feishu", "--webhook-secret-env", "A",
                "--webhook-secret-file", "/f",
            ],
            "two signing secrets given for one channel"
        ),
        (
            ["--webhook", "http://h/", "--webhook-kind", "generic", "--webhook-retries", "11"],
            "--webhook-retries takes a whole number from 0 to 10, not '11'"
        ),
        (["--host", ""], "--host takes a name of 1 to 255 bytes"),
    ]

    @Test(arguments: errors)
    func mistakesAreUsageErrors(words: [String], message: String) {
        do {
            _ = try Self.parse(words)
            Issue.record("parsed \(words)")
        } catch {
            #expect((error as? CLIError)?.message == message)
        }
    }
}
