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
        state.alerts.record(hour: "h", id: "0123456789abcdef", kinds: [.share], at: "t", mode: .unconfigured)
        state.alerts.failed(["h"], error: "HTTP 500")
        state.unreadableSince = ["/var/log/nginx/a.log": 100]
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

    @Test func hourAlertIDsAreStableAndDependOnEveryPart() {
        let h = "2026-11-29T10:00:00+00:00"
        let a = HourAlertID.make(host: "web-1", logs: ["/a", "/b"], hour: h, kinds: [.share])
        #expect(a == HourAlertID.make(host: "web-1", logs: ["/b", "/a", "/a"], hour: h, kinds: [.share]))
        #expect(a != HourAlertID.make(host: "web-2", logs: ["/a", "/b"], hour: h, kinds: [.share]))
        #expect(a != HourAlertID.make(host: "web-1", logs: ["/a"], hour: h, kinds: [.share]))
        #expect(a != HourAlertID.make(host: "web-1", logs: ["/a", "/b"], hour: "2026-11-29T11:00:00+00:00", kinds: [.share]))
        #expect(a != HourAlertID.make(host: "web-1", logs: ["/a", "/b"], hour: h, kinds: [.share, .drift]))
        #expect(
            HourAlertID.make(host: "web-1", logs: ["/a"], hour: h, kinds: [.share, .drift])
                == HourAlertID.make(host: "web-1", logs: ["/a"], hour: h, kinds: [.drift, .share]))
        #expect(a == "\(a.prefix(16))" && a.count == 16 && a.allSatisfy(\.isHexDigit))
    }
}
