import Foundation
import Testing

@testable import UAAuditCore

@Suite struct RunStateTests {
    @Test func aMissingStateIsAFreshOne() throws {
        #expect(try RunState.load(path: "/nonexistent-dir/state.json") == RunState())
    }

    @Test func encodedStateLoadsBackEqual() throws {
        var state = RunState()
        state.newestSeen = 1_795_943_920
        state.hours["2026-11-29T17:00:00+08:00"] = RunState.HourState(
            classes: ["urlsession": 5, "inconsistent": 1], errors: 0, outOfScope: 2, uas: ["x\u{1B}": 1],
            uasApproximate: false, late: 3, closed: true, breached: true)
        state.alertsPending = [
            RunState.PendingAlert(id: "uaaudit-1", hours: ["h"], createdAt: "t", channels: ["wecom:abc"])
        ]
        let dir = try TempDirectory()
        let path = try dir.write("state.json", try state.encoded())
        #expect(try RunState.load(path: path) == state)
    }

    @Test func theDefaultStateEqualsDecodingAVersionOnlyFile() throws {
        let dir = try TempDirectory()
        let path = try dir.write(
            "state.json",
            Array(
                #"{"version": 1, "logs": {}, "hours": {}, "malformed": {}, "malformed_samples": [], "gaps": [], "alerts_sent": [], "alerts_pending": []}"#
                    .utf8))
        #expect(try RunState.load(path: path) == RunState())
    }

    @Test func instantsParseWithOffsets() {
        #expect(Instant.parse("2026-11-29T18:05:07Z") == 1_795_975_507)
        #expect(Instant.parse("2026-11-30T02:05:07+08:00") == 1_795_975_507)
        #expect(Instant.parse("2026-11-29T12:35:07-05:30") == 1_795_975_507)
        #expect(Instant.parse("2026-11-29 18:05:07Z") == nil)
        #expect(Instant.parse("yesterday") == nil)
    }

    @Test func alertIDsAreStableAndDependOnEveryPart() {
        let a = RunEngine.alertID(host: "web-1", alertClass: "inconsistent", hours: ["h1", "h2"])
        #expect(a == RunEngine.alertID(host: "web-1", alertClass: "inconsistent", hours: ["h1", "h2"]))
        #expect(a != RunEngine.alertID(host: "web-2", alertClass: "inconsistent", hours: ["h1", "h2"]))
        #expect(a != RunEngine.alertID(host: "web-1", alertClass: "inconsistent", hours: ["h1"]))
        #expect(a.count == 16)
    }

    @Test func aLogIsFoundUnderAnotherSpellingOfItsPath() throws {
        let dir = try TempDirectory()
        try dir.write("access.log", [])
        var state = RunState()
        state.logs[dir.path("access.log")] = RunState.LogState()
        #expect(state.logKey(for: dir.path("access.log")) == dir.path("access.log"))
        #expect(state.logKey(for: dir.path("./access.log")) == dir.path("access.log"))
        #expect(state.logKey(for: dir.path("other.log")) == dir.path("other.log"))
    }
}
