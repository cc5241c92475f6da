import Foundation
import Synchronization
import Testing

@testable import UAAuditCore

/// Pending hours go to each channel configured now, one message each, and a stop between
/// channels leaves what was delivered delivered and the rest pending.
@Suite struct LedgerDeliveryTests {
    /// Answers each URL's path as told, and records the hour ids of every message.
    final class Answering: HTTPTransport {
        let statuses: [String: Int]
        let sent = Mutex<[(path: String, ids: [String])]>([])
        init(_ statuses: [String: Int]) { self.statuses = statuses }
        func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            let ids = (body?["hours"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            sent.withLock { $0.append((request.url.path, ids)) }
            return .success(HTTPResponse(status: statuses[request.url.path] ?? 404))
        }
    }

    static func channels() throws -> [AlertChannel] {
        [
            AlertChannel(kind: .generic, url: .literal("http://h/a")),
            AlertChannel(kind: .generic, url: .literal("http://h/b")),
        ]
    }

    func pendingLedger(_ report: Report) -> AlertLedger {
        var ledger = AlertLedger()
        for hour in report.hours where hour.alert {
            ledger.record(
                hour: hour.hour, id: "id-" + hour.hour.prefix(13), kinds: [.share], at: "T", mode: .unconfigured)
        }
        return ledger
    }

    func report() throws -> Report {
        var report = try AlertFixtures.report()
        for i in report.hours.indices where report.hours[i].alert {
            report.hours[i].id = "id-" + report.hours[i].hour.prefix(13)
        }
        return report
    }

    @Test func everyChannelGetsThePendingHoursOnceUnderTheirIDs() throws {
        let report = try report()
        var ledger = pendingLedger(report)
        let channels = try Self.channels()
        let transport = Answering(["/a": 200, "/b": 200])
        let mode = AlertLedger.Mode.channels(channels.map(\.key))
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: transport, clock: { Date() },
            sleep: { _ in })
        let outcome = LedgerDelivery.deliver(
            &ledger, report: report, host: "web-1", channels: channels, mode: mode, dispatcher: dispatcher, at: "T2")
        #expect(!outcome.undelivered && !outcome.stopped)
        let ids = ["id-2026-11-29T17", "id-2026-11-29T20"]
        #expect(transport.sent.withLock { $0.map(\.path) } == ["/a", "/b"])
        #expect(transport.sent.withLock { $0.map(\.ids) } == [ids, ids])
        #expect(ledger.pending.isEmpty)
        #expect(ledger.hours.values.map(\.deliveredTo).allSatisfy { $0 == channels.map(\.key) })
        // A second run has nothing to send.
        let again = LedgerDelivery.deliver(
            &ledger, report: report, host: "web-1", channels: channels, mode: mode, dispatcher: dispatcher, at: "T3")
        #expect(again.attempts.isEmpty)
        #expect(transport.sent.withLock { $0.count } == 2)
    }

    @Test func aStopBetweenChannelsKeepsWhatWasDelivered() throws {
        let report = try report()
        var ledger = pendingLedger(report)
        let channels = try Self.channels()
        let transport = Answering(["/a": 200, "/b": 200])
        let mode = AlertLedger.Mode.channels(channels.map(\.key))
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: transport, clock: { Date() },
            sleep: { _ in })
        let asked = Mutex(0)
        let outcome = LedgerDelivery.deliver(
            &ledger, report: report, host: "web-1", channels: channels, mode: mode, dispatcher: dispatcher, at: "T2",
            shouldStop: {
                asked.withLock {
                    $0 += 1
                    return $0 > 1
                }
            })
        #expect(outcome.stopped)
        #expect(outcome.attempts.count == 1)
        #expect(transport.sent.withLock { $0.map(\.path) } == ["/a"])
        #expect(ledger.hours(for: channels[0].key, mode: mode).isEmpty)
        #expect(
            ledger.hours(for: channels[1].key, mode: mode) == [
                "2026-11-29T17:00:00+08:00", "2026-11-29T20:00:00+08:00",
            ])
        #expect(ledger.pending.count == 2)
    }

    @Test func aRefusalStaysPendingWithTheMaskedError() throws {
        let report = try report()
        var ledger = pendingLedger(report)
        let channels = [AlertChannel(kind: .generic, url: .literal("http://h/a?token=SECRET-1"))]
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: Answering([:]), clock: { Date() },
            sleep: { _ in })
        let outcome = LedgerDelivery.deliver(
            &ledger, report: report, host: "web-1", channels: channels, mode: .channels(channels.map(\.key)),
            dispatcher: dispatcher, at: "T2")
        #expect(outcome.undelivered)
        let entry = try #require(ledger.hours["2026-11-29T17:00:00+08:00"])
        #expect(entry.status == .pending && entry.failures == 1)
        #expect(
            entry.lastError
                == "not delivered to generic \(Redaction.url("http://h/a?token=SECRET-1")) (1 attempt): HTTP 404")
    }
}
