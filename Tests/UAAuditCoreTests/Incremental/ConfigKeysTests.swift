import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ConfigKeysTests {
    static let cases: [(String, String?, String?)] = [
        (#"{"version": 1, "threshold": "0.1%"}"#, nil, nil),
        (#"{"treshold": "0.1%"}"#, "treshold", "threshold"),
        (#"{"format": {"name": "x", "escpe": "json"}}"#, "format.escpe", "format.escape"),
        (
            #"{"insight": {"client_key": "remote_addr", "alert_new_famly": "5%"}}"#, "insight.alert_new_famly",
            "insight.alert_new_family"
        ),
        (
            #"{"alerts": [{"url": "http://h/"}, {"url": "http://h/", "secert": "s"}]}"#, "alerts[1].secert",
            "alerts[1].secret"
        ),
        // A value's inside is not a key: logs are strings, app_classes a list.
        (#"{"logs": ["a"], "insight": {"app_classes": ["x"]}}"#, nil, nil),
        // Not JSON: the decoder says what is wrong.
        ("{", nil, nil),
    ]

    /// As the loaders ask: JSON that is none has no unknown key (the parse says what is wrong).
    static func unknown(_ keys: ConfigKeys, _ json: String) -> ConfigKeys.Unknown? {
        (try? JSONValue.parse(Array(json.utf8))).flatMap { keys.firstUnknown(in: $0) }
    }

    @Test(arguments: cases)
    func namesTheUnknownKeyAndTheClosestKnownOne(json: String, path: String?, suggestion: String?) {
        let unknown = Self.unknown(.runConfig, json)
        #expect(unknown?.path == path)
        #expect(unknown?.suggestion == suggestion)
    }

    @Test func decodingRefusesUnknownKeysWithThePath() {
        #expect(throws: ConfigError.self) { try RunConfig.decode(Array(#"{"alert": []}"#.utf8), path: "c.json") }
        do {
            _ = try RunConfig.decode(Array(#"{"format": {"escpe": "json"}}"#.utf8), path: "c.json")
        } catch {
            #expect(
                error.description
                    == "config c.json: unknown key 'format.escpe'; did you mean 'format.escape'? (keys there: escape, name, nginx_conf, string)"
            )
        }
    }

    @Test func theDefaultIsTheDecodingOfAnEmptyObject() throws {
        #expect(try RunConfig.decode(Array("{}".utf8), path: "c.json") == RunConfig())
    }

    @Test(arguments: [
        (#"{"rules": [{"class": "a", "patterns": ["x"]}], "alert_clas": "a"}"#, "alert_clas", "alert_class"),
        (#"{"rules": [{"class": "a", "patern": ["x"]}]}"#, "rules[0].patern", "rules[0].patterns"),
        (#"{"rules": [], "scope": {"paht": "^/api/"}}"#, "scope.paht", "scope.path"),
        (#"{"rules": [], "examples": [{"ua": "x", "clas": "a"}]}"#, "examples[0].clas", "examples[0].class"),
    ])
    func aRulesFileIsCheckedAtEveryLevelToo(json: String, path: String, suggestion: String) {
        let unknown = Self.unknown(.rulesFile, json)
        #expect(unknown?.path == path)
        #expect(unknown?.suggestion == suggestion)
    }

    @Test func theShippedRulesFilesHaveOnlyKnownKeys() throws {
        let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("rules")
        for name in ["builtin.json", "ios-defaults.json", "api-only.json"] {
            let bytes = try [UInt8](Data(contentsOf: rules.appendingPathComponent(name)))
            #expect(ConfigKeys.rulesFile.firstUnknown(in: try JSONValue.parse(bytes)) == nil, "\(name)")
        }
        let config = try [UInt8](
            Data(contentsOf: rules.deletingLastPathComponent().appendingPathComponent("cron/uaaudit.json")))
        #expect(ConfigKeys.runConfig.firstUnknown(in: try JSONValue.parse(config)) == nil)
    }

    /// The places of the values, as the man page lists them: sorted at each level, a list's
    /// items as `[]`.
    @Test func pathsNameEveryValueWithItsPlace() {
        let keys = ConfigKeys.object([
            "b": .value, "a": .object(["y": .value, "x": .value]),
            "c": .list(.object(["url": .value, "kind": .value])), "d": .list(.value),
        ])
        #expect(keys.paths == ["a.x", "a.y", "b", "c[].kind", "c[].url", "d[]"])
        #expect(ConfigKeys.value.paths == [""])
        #expect(ConfigKeys.runConfig.paths.contains("insight.baseline_hours"))
        #expect(ConfigKeys.rulesFile.paths.contains("rules[].patterns"))
    }
}
