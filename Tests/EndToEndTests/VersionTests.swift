import Foundation
import Testing

/// `uaaudit --version` says what the Debian package's version says (the repository's VERSION
/// file, which scripts/package-deb.sh reads too) and which commit the binary was built from.
@Suite struct VersionTests {
    @Test(arguments: [["--version"], ["version"]])
    func versionIsTheVersionFileAndTheCommit(args: [String]) throws {
        let version = try String(contentsOf: Tool.repoRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let git = try ExternalTool.run("/usr/bin/git", ["-C", Tool.repoRoot.path, "rev-parse", "--short", "HEAD"])
        let commit = git.status == 0 ? git.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
        let result = try Tool.run(args)
        #expect(result.status == 0)
        #expect(result.out == "uaaudit \(version) (commit \(commit))\n")
    }
}
