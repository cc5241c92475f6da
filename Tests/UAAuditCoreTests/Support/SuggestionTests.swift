import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("treshold", "threshold"), ("alert", "alerts"), ("escpe", "escape"), ("JSN", "json"), ("urll", "url"),
    ])
    func findsTheClosestWord(word: String, closest: String) {
        let words = ["threshold", "alerts", "escape", "json", "url", "url_env"]
        #expect(Suggestion.closest(to: word, among: words) == closest)
    }

    @Test(arguments: [
        ("foo", ["scan", "run", "merge", "help"]), ("state", ["escape", "json", "out"]),
        ("_comment", ["format", "host", "alerts", "version"]), ("x", ["q"]), ("abcdef", ["ghijkl"]),
    ])
    func suggestsNothingForAWordTooFarFromEveryCandidate(word: String, candidates: [String]) {
        #expect(Suggestion.closest(to: word, among: candidates) == nil)
    }

    @Test func aTypoIsAtMostTwoEditsAndOneEditPerThreeCharacters() {
        #expect(Suggestion.isClose("jsn", to: "json"))
        #expect(Suggestion.isClose("scna", to: "scan"))
        #expect(Suggestion.isClose("baseline_hour", to: "baseline_hours"))
        #expect(Suggestion.isClose("tresholds", to: "threshold"))
        #expect(!Suggestion.isClose("foo", to: "run"))
        #expect(!Suggestion.isClose("ab", to: "cd"))
        #expect(!Suggestion.isClose("thresh", to: "threshold"))
    }

    @Test func distanceCountsEdits() {
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("same", "same") == 0)
        #expect(Suggestion.distance("tset", "test") == 1)
        #expect(Suggestion.closest(to: "x", among: []) == nil)
        // Equally close: the one that starts alike.
        #expect(Suggestion.closest(to: "lnit", among: ["init", "test", "lint"]) == "lint")
        #expect(Suggestion.closest(to: "inti", among: ["init", "test", "lint"]) == "init")
    }
}

@Suite struct PathIdentityTests {
    @Test func oneFileUnderTwoSpellingsIsOneIdentity() throws {
        let dir = try TempDirectory()
        let file = try dir.write("a.log", Array("x\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.path("link"), withDestinationPath: file)
        #expect(PathIdentity.of(file) == PathIdentity.of(dir.path("link")))
        #expect(PathIdentity.of(file) == PathIdentity.of(dir.url.path + "/./a.log"))
        #expect(PathIdentity.of(file) != PathIdentity.of(dir.path("b.log")))
        // Files that do not exist yet compare by their resolved paths.
        let resolved = try #require(Syscalls.realPath(dir.url.path))
        #expect(PathIdentity.of(dir.url.path + "/sub/../new.json") == .path(dir.url.path + "/sub/../new.json"))
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: false)
        #expect(PathIdentity.of(dir.url.path + "/sub/../new.json") == .path(resolved + "/new.json"))
        #expect(PathIdentity.of(dir.path("new.json")) == .path(resolved + "/new.json"))
    }
}
