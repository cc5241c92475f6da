import Foundation
import Testing

/// A truncated or corrupt config or rules file: exit 2, a message that names the file and says
/// what is wrong and where, and the file is never written to.
@Suite struct CorruptFileTests {
    static let broken: [(content: String, reason: String)] = [
        (
            #"{"version": 1, "logs": ["/var/log/a.log""#,
            "not JSON: unexpected end of file at line 1, column 41 (truncated?)"
        ),
        ("{\"version\": 1,\n \"logs\": [\"/x\" x]}", "not JSON: invalid value at line 2, column 16"),
        ("", "not JSON: unexpected end of file at line 1, column 1 (truncated?)"),
    ]

    @Test(arguments: 0..<broken.count)
    func aBrokenConfigIsNamedWithWhereItBreaksAndLeftAsItIs(index: Int) throws {
        let (content, reason) = Self.broken[index]
        let dir = try Scratch()
        let config = try dir.write("uaaudit.json", content)
        let expected = "uaaudit: config \(config): \(reason)\n"
        for args in [["run", "--config", config], ["state", "show", "--config", config]] {
            let result = try Tool.run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr == expected, "\(args)")
        }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["uaaudit.json"])
    }

    @Test(arguments: 0..<broken.count)
    func aBrokenRulesFileIsNamedWithWhereItBreaksAndLeftAsItIs(index: Int) throws {
        let (content, reason) = Self.broken[index]
        let dir = try Scratch()
        let rules = try dir.write("rules.json", content)
        let log = try dir.write("a.log", CommandLineTests.alertLog())
        let expected = "uaaudit: rules file \(rules) is not valid: \(reason)\n"
        let state = dir.path("state.json")
        for args in [["scan", "--rules", rules, log], ["run", "--state", state, "--rules", rules, log]] {
            let result = try Tool.run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr == expected, "\(args)")
        }
        #expect(try String(contentsOfFile: rules, encoding: .utf8) == content)
        #expect(!FileManager.default.fileExists(atPath: state))
    }
}
