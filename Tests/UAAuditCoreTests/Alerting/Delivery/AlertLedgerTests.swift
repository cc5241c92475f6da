import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The ledger's transitions, one table row per case: pending → delivered once every channel
/// configured now took the hour; no channel keeps it pending; metrics only marks it not alerted.
@Suite struct AlertLedgerTests {
    static let h1 = "2026-11-29T10:00:00+00:00"
    static let h2 = "2026-11-29T11:00:00+00:00"

    /// One step of a scenario.
    enum Step: Sendable, CustomStringConvertible {
        case record(String, AlertLedger.Mode)
        case apply(AlertLedger.Mode)
        case delivered([String], to: String, AlertLedger.Mode)
        case failed([String], String)

        var description: String {
            switch self {
            case .record(let h, let m): return "record \(h.prefix(13)) \(m)"
            case .apply(let m): return "apply \(m)"
            case .delivered(let hs, let c, let m): return "delivered \(hs.count) to \(c) \(m)"
            case .failed(let hs, let e): return "failed \(hs.count): \(e)"
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var steps: [Step]
        /// Per hour: status, channels that took it, failures.
        var expected: [String: (AlertLedger.Status, [String], Int)]
        /// What each channel would be sent next, under `next`.
        var next: AlertLedger.Mode
        var toSend: [String: [String]]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a breached hour with a channel is pending, then delivered",
            steps: [.record(h1, .channels(["A"])), .delivered([h1], to: "A", .channels(["A"]))],
            expected: [h1: (.delivered, ["A"], 0)], next: .channels(["A"]), toSend: ["A": []]),
        Case(
            name: "no channel configured: the hour stays pending, and goes to the first channel configured",
            steps: [.record(h1, .unconfigured), .apply(.unconfigured)],
            expected: [h1: (.pending, [], 0)], next: .channels(["A"]), toSend: ["A": [h1]]),
        Case(
            name: "no channel: nothing is sent anywhere",
            steps: [.record(h1, .unconfigured)],
            expected: [h1: (.pending, [], 0)], next: .unconfigured, toSend: ["A": []]),
        Case(
            name: "an explicit empty alerts list records the hour as not alerted",
            steps: [.record(h1, .metricsOnly)],
            expected: [h1: (.notAlerted, [], 0)], next: .channels(["A"]), toSend: ["A": []]),
        Case(
            name: "metrics only later: pending hours become not alerted",
            steps: [.record(h1, .channels(["A"])), .failed([h1], "HTTP 500"), .apply(.metricsOnly)],
            expected: [h1: (.notAlerted, [], 1)], next: .channels(["A"]), toSend: ["A": []]),
        Case(
            name: "a refused hour stays pending with its failure count",
            steps: [.record(h1, .channels(["A"])), .failed([h1], "HTTP 500"), .failed([h1], "HTTP 502")],
            expected: [h1: (.pending, [], 2)], next: .channels(["A"]), toSend: ["A": [h1]]),
        Case(
            name: "a channel whose URL was corrected gets the pending hour (the old key is gone)",
            steps: [.record(h1, .channels(["A-typo"])), .failed([h1], "HTTP 404")],
            expected: [h1: (.pending, [], 1)], next: .channels(["A"]), toSend: ["A": [h1], "A-typo": []]),
        Case(
            name: "two channels: delivered only once both took it; the one that took it is not sent again",
            steps: [
                .record(h1, .channels(["A", "B"])), .delivered([h1], to: "A", .channels(["A", "B"])),
                .failed([h1], "HTTP 500"),
            ],
            expected: [h1: (.pending, ["A"], 1)], next: .channels(["A", "B"]), toSend: ["A": [], "B": [h1]]),
        Case(
            name: "channel B removed after A took it: the hour is delivered, nothing is sent",
            steps: [
                .record(h1, .channels(["A", "B"])), .delivered([h1], to: "A", .channels(["A", "B"])),
                .apply(.channels(["A"])),
            ],
            expected: [h1: (.delivered, ["A"], 0)], next: .channels(["A"]), toSend: ["A": [], "B": []]),
        Case(
            name: "a channel that took nothing keeps a pending hour pending when channels are unconfigured",
            steps: [.record(h1, .channels(["A"])), .failed([h1], "HTTP 500"), .apply(.unconfigured)],
            expected: [h1: (.pending, [], 1)], next: .unconfigured, toSend: ["A": []]),
        Case(
            name: "channel B replaced by C: C gets the hour, which is delivered once C takes it",
            steps: [
                .record(h1, .channels(["A", "B"])), .delivered([h1], to: "A", .channels(["A", "B"])),
                .delivered([h1], to: "C", .channels(["A", "C"])),
            ],
            expected: [h1: (.delivered, ["A", "C"], 0)], next: .channels(["A", "C"]), toSend: ["A": [], "C": []]),
        Case(
            name: "an hour recorded twice keeps its first entry",
            steps: [
                .record(h1, .channels(["A"])), .delivered([h1], to: "A", .channels(["A"])),
                .record(h1, .channels(["A"])),
            ],
            expected: [h1: (.delivered, ["A"], 0)], next: .channels(["A"]), toSend: ["A": []]),
        Case(
            name: "a delivered hour is not reopened by a failure or by metrics only",
            steps: [
                .record(h1, .channels(["A"])), .delivered([h1], to: "A", .channels(["A"])), .failed([h1], "x"),
                .apply(.metricsOnly),
            ],
            expected: [h1: (.delivered, ["A"], 0)], next: .channels(["A"]), toSend: ["A": []]),
        Case(
            name: "two pending hours go together, in time order",
            steps: [.record(h2, .unconfigured), .record(h1, .unconfigured)],
            expected: [h1: (.pending, [], 0), h2: (.pending, [], 0)], next: .channels(["A"]),
            toSend: ["A": [h1, h2]]),
    ]

    @Test(arguments: cases)
    func transitions(_ c: Case) {
        var ledger = AlertLedger()
        for step in c.steps {
            switch step {
            case .record(let hour, let mode):
                ledger.record(hour: hour, id: "id-\(hour.prefix(13))", kinds: [.share], at: "T", mode: mode)
            case .apply(let mode): ledger.apply(mode, at: "T2")
            case .delivered(let hours, let channel, let mode):
                ledger.delivered(hours, to: channel, at: "T2", mode: mode)
            case .failed(let hours, let error): ledger.failed(hours, error: error)
            }
        }
        #expect(ledger.hours.count == c.expected.count)
        for (hour, (status, to, failures)) in c.expected {
            #expect(ledger.hours[hour]?.status == status, "\(hour)")
            #expect(ledger.hours[hour]?.deliveredTo == to, "\(hour)")
            #expect(ledger.hours[hour]?.failures == failures, "\(hour)")
            #expect(ledger.hours[hour]?.id == "id-\(hour.prefix(13))")
            #expect(ledger.hours[hour]?.deliveredAt == (status == .delivered ? "T2" : nil))
        }
        for (channel, hours) in c.toSend { #expect(ledger.hours(for: channel, mode: c.next) == hours, "\(channel)") }
    }

    @Test func pendingHoursOutliveTheHistoryWindowThenExpire() {
        var ledger = AlertLedger()
        ledger.record(hour: Self.h1, id: "p", kinds: [.share], at: "T", mode: .unconfigured)
        ledger.record(hour: Self.h2, id: "d", kinds: [.share], at: "T", mode: .channels(["A"]))
        ledger.delivered([Self.h2], to: "A", at: "T", mode: .channels(["A"]))
        let h1End = HourKey(iso8601: Self.h1)!.startInstant + 3600
        let h2End = h1End + 3600
        // History 2 hours: the delivered hour goes 2 h after its end, the pending one 4 h after its end.
        #expect(ledger.prune(now: h2End + 2 * 3600 - 1, historyHours: 2) == [])
        #expect(ledger.hours.count == 2)
        #expect(ledger.prune(now: h2End + 2 * 3600, historyHours: 2) == [])
        #expect(Array(ledger.hours.keys) == [Self.h1])
        #expect(ledger.prune(now: h1End + 4 * 3600 - 1, historyHours: 2) == [])
        #expect(ledger.prune(now: h1End + 4 * 3600, historyHours: 2) == [Self.h1])
        #expect(ledger.hours.isEmpty)
    }

    @Test func theModeOfAConfiguration() {
        #expect(AlertLedger.Mode.of(channelKeys: ["A"], explicitlyNone: false) == .channels(["A"]))
        #expect(AlertLedger.Mode.of(channelKeys: ["A"], explicitlyNone: true) == .channels(["A"]))
        #expect(AlertLedger.Mode.of(channelKeys: [], explicitlyNone: false) == .unconfigured)
        #expect(AlertLedger.Mode.of(channelKeys: [], explicitlyNone: true) == .metricsOnly)
    }
}
