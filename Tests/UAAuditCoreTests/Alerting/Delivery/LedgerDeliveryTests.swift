import Foundation
import Synchronization
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

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
                == "not delivered to generic \(Redaction.url("http://h/a?token=SECRET-1")) (1 attempt): HTTP 404 (check the URL: the service does not know this webhook)"
        )
    }

    /// Records the chat text of every message and answers `errcode` 0.
    final class ChatReceiver: HTTPTransport {
        let texts = Mutex<[String]>([])
        func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            let text =
                ((body?["markdown"] as? [String: Any])?["content"] as? String)
                ?? ((body?["markdown"] as? [String: Any])?["text"] as? String)
                ?? ((body?["content"] as? [String: Any])?["text"] as? String) ?? (body?["text"] as? String) ?? ""
            texts.withLock { $0.append(text) }
            return .success(HTTPResponse(status: 200, body: Array(#"{"errcode":0,"code":0}"#.utf8)))
        }
    }

    /// A report with `count` consecutive breached hours, each under id `hhhhhhNN…`.
    func backlogReport(count: Int) throws -> Report {
        var report = try AlertFixtures.report()
        let model = try #require(report.hours.first { $0.alert })
        let start = try #require(HourKey(iso8601: model.hour))
        report.hours = (0..<count).map { i in
            var hour = model
            hour.hour = HourKey(localHour: start.localHour + Int64(i), offsetMinutes: start.offsetMinutes).iso8601
            hour.id = String(format: "h%07d", i) + "-rest-of-the-id"
            return hour
        }
        return report
    }

    /// 48 pending hours do not fit one WeCom, Slack, DingTalk or Feishu message: they go out as
    /// several messages in the same run, each under the limit, each hour (by its short id) in
    /// exactly one, none "not shown"; and the ledger has every hour delivered, none left over.
    @Test(arguments: [
        (ChannelKind.wecom, "http://h/cgi-bin/webhook/send?key=K", 4096, 48),
        (.slack, "http://h/services/T/B/X", 4000, 48),
        (.dingtalk, "http://h/robot/send?access_token=T", 20_000, 240),
        (.feishu, "http://h/open-apis/bot/v2/hook/X", 20_000, 240),
    ])
    func aBacklogTooLongForOneMessageGoesOutWholeInSeveral(kind: ChannelKind, url: String, limit: Int, count: Int)
        throws
    {
        let report = try backlogReport(count: count)
        var ledger = AlertLedger()
        for hour in report.hours {
            ledger.record(hour: hour.hour, id: hour.id!, kinds: [.share], at: "T", mode: .unconfigured)
        }
        let channels = [AlertChannel(kind: kind, url: .literal(url))]
        let mode = AlertLedger.Mode.channels(channels.map(\.key))
        let transport = ChatReceiver()
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: transport, clock: { Date() },
            sleep: { _ in })
        let outcome = LedgerDelivery.deliver(
            &ledger, report: report, host: "web-1", channels: channels, mode: mode, dispatcher: dispatcher, at: "T2")
        let texts = transport.texts.withLock { $0 }
        #expect(!outcome.undelivered && !outcome.stopped)
        let expected: [ChannelKind: [Int]] = [
            .wecom: [12, 12, 12, 12], .slack: [12, 12, 12, 12], .dingtalk: [67, 67, 67, 39], .feishu: [68, 68, 68, 36],
        ]
        #expect(outcome.attempts.map(\.hours.count) == expected[kind])
        #expect(outcome.attempts.count == texts.count)
        #expect(texts.allSatisfy { $0.utf8.count <= limit })
        #expect(!texts.contains { $0.contains("more hours not shown") })
        for i in 0..<count {
            let short = String(format: "h%07d", i)
            #expect(texts.filter { $0.contains("id \(short)") }.count == 1, "hour \(i)")
        }
        #expect(outcome.attempts.flatMap(\.hours) == report.hours.map(\.hour))
        #expect(ledger.pending.isEmpty)
        #expect(ledger.hours.values.allSatisfy { $0.status == .delivered && $0.deliveredTo == channels.map(\.key) })
    }

    /// When the second of several messages is refused, the hours of the first are delivered and
    /// all the others (refused or never sent) stay pending for the channel.
    @Test func aRefusedBatchLeavesItsHoursAndTheRestPending() throws {
        let report = try backlogReport(count: 48)
        var ledger = AlertLedger()
        for hour in report.hours {
            ledger.record(hour: hour.hour, id: hour.id!, kinds: [.share], at: "T", mode: .unconfigured)
        }
        final class SecondRefused: HTTPTransport {
            let calls = Mutex(0)
            func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
                let n = calls.withLock {
                    $0 += 1
                    return $0
                }
                return .success(HTTPResponse(status: n == 2 ? 404 : 200, body: Array(#"{"errcode":0}"#.utf8)))
            }
        }
        let channels = [AlertChannel(kind: .wecom, url: .literal("http://h/cgi-bin/webhook/send?key=K"))]
        let mode = AlertLedger.Mode.channels(channels.map(\.key))
        let transport = SecondRefused()
        let dispatcher = AlertDispatcher(
            options: DeliveryOptions(retries: 0), environment: [:], transport: transport, clock: { Date() },
            sleep: { _ in })
        let outcome = LedgerDelivery.deliver(
            &ledger, report: report, host: "web-1", channels: channels, mode: mode, dispatcher: dispatcher, at: "T2")
        #expect(outcome.attempts.count == 2)
        #expect(transport.calls.withLock { $0 } == 2)
        let first = outcome.attempts[0].hours
        #expect(!first.isEmpty && first.count < 48)
        #expect(first == Array(report.hours.map(\.hour).prefix(first.count)))
        #expect(ledger.pending == Array(report.hours.map(\.hour).dropFirst(first.count)))
        #expect(ledger.hours(for: channels[0].key, mode: mode).count == 48 - first.count)
    }
}
