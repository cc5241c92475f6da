import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RunStateTests {
    /// A key given twice is no state a run wrote: the parse would keep one value of the two.
    @Test func aKeyGivenTwiceIsRefused() throws {
        var text = String(decoding: try RunState().encoded(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 2, \"version\" : 2")
        #expect(
            throws: StateError(
                path: "s.json",
                reason: "is corrupt: key 'version' is given twice; give it once (JSON keeps only one of the values, "
                    + "in silence)")
        ) { try RunState.decode(Array(text.utf8), path: "s.json") }
    }

    @Test func aMissingStateIsAFreshOne() throws {
        #expect(try RunState.load(path: "/nonexistent-dir/state.json") == RunState())
    }

    @Test func encodedStateLoadsBackEqual() throws {
        var state = RunState()
        state.newestSeen = 1_795_943_920
        state.hours["2026-11-29T17:00:00+08:00"] = RunState.HourState(
            counts: HourCounts(classes: ["urlsession": 5, "inconsistent": 1], errors: 0, outOfScope: 2),
            late: 3, closed: true, breached: true)
        state.hours["2026-11-29T17:00:00+08:00"]?.counts.uas = ["x\u{1B}": 1]
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
        #expect(
            a
                != HourAlertID.make(
                    host: "web-1", logs: ["/a", "/b"], hour: "2026-11-29T11:00:00+00:00", kinds: [.share]))
        #expect(a != HourAlertID.make(host: "web-1", logs: ["/a", "/b"], hour: h, kinds: [.share, .drift]))
        #expect(
            HourAlertID.make(host: "web-1", logs: ["/a"], hour: h, kinds: [.share, .drift])
                == HourAlertID.make(host: "web-1", logs: ["/a"], hour: h, kinds: [.drift, .share]))
        #expect(a == "\(a.prefix(16))" && a.count == 16 && a.allSatisfy(\.isHexDigit))
    }
}

/// A version 1 state's alerts, by message, become version 2's ledger, by hour.
@Suite struct RunStateMigrationTests {
    static let v1 = #"""
        {"version": 1, "logs": {}, "malformed": {}, "malformed_samples": [], "gaps": [],
         "hours": {
           "2026-11-29T08:00:00+00:00": {"classes": {"inconsistent": 5}, "errors": 0, "out_of_scope": 0, "uas": {},
             "uas_approximate": false, "late": 0, "closed": true, "breached": true},
           "2026-11-29T09:00:00+00:00": {"classes": {"inconsistent": 5}, "errors": 0, "out_of_scope": 0, "uas": {},
             "uas_approximate": false, "late": 0, "closed": true, "breached": true},
           "2026-11-29T10:00:00+00:00": {"classes": {"inconsistent": 5}, "errors": 0, "out_of_scope": 0, "uas": {},
             "uas_approximate": false, "late": 0, "closed": true, "breached": true}
         },
         "alerts_sent": [
           {"id": "a1", "hours": ["2026-11-29T08:00:00+00:00"], "sent_at": "T8",
            "channels": ["wecom https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=*** #12345678"]},
           {"id": "a2", "hours": ["2026-11-29T09:00:00+00:00", "2026-11-29T07:00:00+00:00"], "sent_at": "T9", "channels": []}
         ],
         "alerts_pending": [
           {"id": "a3", "hours": ["2026-11-29T10:00:00+00:00"], "created_at": "T10",
            "channels": ["generic http://h/webhook/abcdefghijklmnopqrstuvwx"], "attempts": 3,
            "last_error": "HTTP 403: no route /webhook/abcdefghijklmnopqrstuvwx"}
         ]}
        """#

    @Test func sentStaysDeliveredUnsentWithoutAChannelAndPendingBecomePendingWithoutTheirOldSecrets() throws {
        let state = try RunState.decode(Array(Self.v1.utf8), path: "state.json")
        #expect(state.version == 2)
        typealias E = AlertLedger.Entry
        #expect(
            state.alerts.hours == [
                "2026-11-29T08:00:00+00:00": E(
                    id: "", kinds: [.share], status: .delivered, recordedAt: "T8", deliveredAt: "T8"),
                // Recorded as sent by a run without a channel: pending, for the cron job to send.
                // (07:00 is no longer in the state: nothing to send.)
                "2026-11-29T09:00:00+00:00": E(id: "", kinds: [.share], status: .pending, recordedAt: "T9"),
                "2026-11-29T10:00:00+00:00": E(
                    id: "", kinds: [.share], status: .pending, recordedAt: "T10", failures: 3),
            ])
        let text = String(decoding: try state.encoded(), as: UTF8.self)
        #expect(!text.contains("abcdefghijklmnopqrstuvwx") && !text.contains("alerts_pending"))
    }

    @Test func theNextRunGivesMigratedHoursTheirIDs() throws {
        var state = try RunState.decode(Array(Self.v1.utf8), path: "state.json")
        let settings = RunSettings(
            scan: ScanConfiguration(format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin()),
            logs: ["/var/log/nginx/access.log"], now: 1_795_950_000, host: "web-1")
        RunEngine.assignMissingIDs(&state, settings: settings)
        #expect(
            state.alerts.hours["2026-11-29T09:00:00+00:00"]?.id
                == HourAlertID.make(
                    host: "web-1", logs: ["/var/log/nginx/access.log"], hour: "2026-11-29T09:00:00+00:00",
                    kinds: [.share]))
        #expect(state.alerts.hours.values.allSatisfy { $0.id.count == 16 })
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
    /// A state whose numbers no run writes (negative counts, counts that overflow when a run
    /// adds them up, offsets and times out of any file's or clock's range) is refused on load
    /// naming the key, instead of trapping later (issue 31: exit 132).
    @Test func outOfRangeValuesAreRefusedNamingTheKey() throws {
        let hour = "2026-11-29T17:00:00+08:00"
        let max = Int64.max
        let half = RunState.maxCount / 2 + 1
        let tracked = RunState.Tracked(
            identity: FileIdentity(device: 1, inode: 2, fingerprint: "00", fingerprintBytes: 0), offset: 10, size: 10,
            modified: 0, path: "/l/access.log")
        let cases: [(change: (inout RunState) -> Void, reason: String)] = [
            (
                { $0.hours[hour]?.counts.classes["urlsession"] = max },
                "hour \(hour): classes.urlsession 9223372036854775807 is over 9007199254740992, the most a count may be"
            ),
            ({ $0.hours[hour]?.counts.classes["urlsession"] = -5 }, "hour \(hour): classes.urlsession -5 is negative"),
            (
                {
                    $0.hours[hour]?.counts.errors = half
                    $0.hours[hour]?.counts.outOfScope = half
                },
                "hour \(hour): out_of_scope 4503599627370497 takes the state's counts together past 9007199254740992"
            ),
            ({ $0.hours[hour]?.late = -1 }, "hour \(hour): late -1 is negative"),
            (
                { $0.hours[hour]?.counts.uas["x y"] = max },
                #"hour \#(hour): uas."x y" 9223372036854775807 is over 9007199254740992, the most a count may be"#
            ),
            (
                { $0.malformed["2026-11-29T18:00:00Z"] = max },
                "malformed.2026-11-29T18:00:00Z 9223372036854775807 is over 9007199254740992, the most a count may be"
            ),
            (
                {
                    $0.totals = RunTotals(since: "t")
                    $0.totals?.errors = -1
                }, "totals.errors -1 is negative"
            ),
            (
                {
                    $0.totals = RunTotals(since: "t")
                    $0.totals?.classes["urlsession"] = half
                    $0.malformed["m"] = half
                },
                "totals.classes.urlsession 4503599627370497 takes the state's counts together past 9007199254740992"
            ),
            (
                {
                    $0.totals = RunTotals(since: "t")
                    $0.totals?.lastSuccess = max
                },
                "totals.last_success 9223372036854775807 is outside -62135596800...253402300799 (years 1 to 9999)"
            ),
            (
                { $0.newestSeen = Int64.min },
                "newest_seen -9223372036854775808 is outside -62135596800...253402300799 (years 1 to 9999)"
            ),
            (
                { $0.unreadableSince = ["/l/a.log": max] },
                "unreadable_since./l/a.log 9223372036854775807 is outside -62135596800...253402300799 (years 1 to 9999)"
            ),
            (
                {
                    $0.logs["/l/access.log"] = .init(current: tracked)
                    $0.logs["/l/access.log"]?.current?.size = max
                },
                "log /l/access.log, file /l/access.log: size 9223372036854775807 is outside 0...9007199254740992"
            ),
            (
                {
                    var d = tracked
                    d.offset = max
                    d.size = max
                    $0.logs["/l/access.log"] = .init(draining: [d])
                },
                "log /l/access.log, file /l/access.log: offset 9223372036854775807 is outside 0...9007199254740992"
            ),
            (
                { $0.logs["/l/access.log"] = .init(known: [.init(identity: tracked.identity, size: -1, modified: 0)]) },
                "log /l/access.log: known[0].size -1 is outside 0...9007199254740992"
            ),
            (
                {
                    $0.gaps = [
                        .init(
                            log: "/l/a.log", file: "/l/a.log", fromOffset: 5, toOffset: 4, reason: "r", detectedAt: "t")
                    ]
                },
                "gaps[0] (log /l/a.log): to_offset 4 is outside 5...9007199254740992"
            ),
            (
                {
                    $0.gaps = [
                        .init(
                            log: "/l/a.log", file: "/l/a.log", fromOffset: max, toOffset: nil, reason: "r",
                            detectedAt: "t")
                    ]
                },
                "gaps[0] (log /l/a.log): from_offset 9223372036854775807 is outside 0...9007199254740992"
            ),
            (
                {
                    $0.hours[hour]?.counts.insight = HourInsight()
                    $0.hours[hour]?.counts.insight?.paths["/a"] = PathCount(count: 1, rejected: max)
                },
                #"hour \#(hour): insight.paths."/a".rejected 9223372036854775807 is over 9007199254740992, the most a count may be"#
            ),
            (
                {
                    $0.hours[hour]?.counts.insight = HourInsight()
                    $0.hours[hour]?.counts.insight?.families["F/#"] = ["inconsistent": -2]
                },
                #"hour \#(hour): insight.families."F/#".inconsistent -2 is negative"#
            ),
            (
                {
                    $0.hours[hour]?.counts.insight = HourInsight()
                    $0.hours[hour]?.counts.insight?.statuses = ["inconsistent": StatusCounts(s403: max)]
                },
                "hour \(hour): insight.statuses.inconsistent.403 9223372036854775807 is over 9007199254740992, the most a count may be"
            ),
            (
                { $0.hours[hour]?.counts.classes["leg\u{1B}[31macy"] = 15 },
                #"hour \#(hour): class "leg\u{1B}[31macy" is no name a rules file can give"#
            ),
            (
                { $0.waiting = [hour: RunState.HourState(counts: HourCounts(classes: ["Legacy": 1]))] },
                #"hour \#(hour): class "Legacy" is no name a rules file can give"#
            ),
        ]
        for (i, entry) in cases.enumerated() {
            var state = RunState()
            state.hours[hour] = RunState.HourState(
                counts: HourCounts(classes: ["urlsession": 5, "inconsistent": 1]), closed: true)
            #expect(try RunState.decode(try state.encoded(), path: "s.json") == state)
            entry.change(&state)
            #expect(throws: StateError(path: "s.json", reason: "is corrupt: \(entry.reason)"), "case \(i)") {
                try RunState.decode(try state.encoded(), path: "s.json")
            }
        }
        // The largest values allowed load.
        var state = RunState()
        state.hours[hour] = RunState.HourState(counts: HourCounts(classes: ["urlsession": RunState.maxCount]))
        state.newestSeen = 253_402_300_799
        #expect(try RunState.decode(try state.encoded(), path: "s.json") == state)
    }
}
