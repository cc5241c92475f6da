import Foundation
import Glibc
import Synchronization
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `run`'s transaction, on a real directory and a fake channel: where it ends, what it says
/// on the way, and what it leaves on disk.
@Suite struct RunTransactionTests {
    static let hour = "2026-11-29T10:00:00+00:00"
    static let generatedAt = "2026-11-29T11:06:00Z"

    /// Answers every message with `status`, and counts them.
    final class Channel: HTTPTransport {
        let status: Int
        let sent = Mutex(0)
        init(status: Int) { self.status = status }
        func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
            sent.withLock { $0 += 1 }
            return .success(HTTPResponse(status: status))
        }
    }

    /// A log whose hour 10 breaches (2 inconsistent of 152), one generic channel, and the
    /// report, page and metrics beside the state.
    struct Scene {
        let dir: TempDirectory
        let channel = AlertChannel(kind: .generic, url: .literal("http://receiver/a"))
        var files: RunTransaction.Files

        init() throws {
            dir = try TempDirectory()
            var lines: [String] = []
            for i in 0..<152 {
                let time = "29/Nov/2026:10:15:\(String(i % 60).leftPad2) +0000"
                lines.append(LogLines.uaLog(time: time, ua: i < 150 ? LogLines.urlsession : LogLines.cfnetwork))
            }
            try dir.write("access.log", Array((lines.joined(separator: "\n") + "\n").utf8))
            files = RunTransaction.Files(
                state: dir.path("state.json"), lock: dir.path("state.json.lock"), lockWait: 0,
                report: dir.path("report.json"), html: dir.path("report.html"), prom: dir.path("uaaudit.prom"))
        }

        func transaction(_ transport: Channel, stop: RunStop = .never) throws -> RunTransaction {
            let scan = ScanConfiguration(format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin())
            let settings = RunSettings(
                scan: scan, logs: [dir.path("access.log")],
                now: try #require(Instant.parse(RunTransactionTests.generatedAt)),
                alertMode: .of(channelKeys: [channel.key], explicitlyNone: false), host: "web-1")
            return RunTransaction(
                settings: settings, files: files, channels: [channel], delivery: DeliveryOptions(retries: 0),
                links: AlertLinks(), environment: [:], transport: transport, stop: stop,
                generatedAt: RunTransactionTests.generatedAt)
        }

        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: dir.path(name)) }
    }

    /// The events of a run, by name, in order.
    static func names(_ events: [RunTransaction.Event]) -> [String] {
        events.map { event in
            switch event {
            case .computed: return "computed"
            case .reportWritten(let html): return "reportWritten(\(html.map { "\($0)" } ?? "nil"))"
            case .formatChecked: return "formatChecked"
            case .attempt(let attempt): return "attempt(\(attempt.hours), delivered: \(attempt.result.delivered))"
            case .deliveryEnded(let sent, let pending): return "deliveryEnded(sent: \(sent), pending: \(pending))"
            }
        }
    }

    @Test func aRunThatHoldsTheLockLeavesEverythingUntouched() throws {
        let scene = try Scene()
        let fd = open(scene.files.lock, O_RDWR | O_CREAT, 0o600)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        let transport = Channel(status: 200)
        var events: [RunTransaction.Event] = []
        let outcome = try scene.transaction(transport).run { events.append($0) }
        guard case .busy(let lock, let waited) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(lock == scene.files.lock)
        #expect(waited == 0)
        #expect(events.isEmpty)
        #expect(transport.sent.withLock { $0 } == 0)
        #expect(!scene.exists("state.json") && !scene.exists("report.json"))
    }

    @Test func aStateOfANewerVersionIsLeftAsItIs() throws {
        let scene = try Scene()
        let state = Array(#"{"version": 99}"#.utf8)
        try scene.dir.write("state.json", state)
        var events: [RunTransaction.Event] = []
        let outcome = try scene.transaction(Channel(status: 200)).run { events.append($0) }
        guard case .stateUnusable(let error) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(
            error
                == StateError(
                    path: scene.files.state,
                    reason: "is version 99, newer than this uaaudit reads (\(RunState.currentVersion))"))
        #expect(events.isEmpty)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: scene.files.state))) == state)
        #expect(!scene.exists("report.json"))
    }

    @Test func aReportThatCannotBeWrittenCommitsAndSendsNothing() throws {
        var scene = try Scene()
        scene.files = RunTransaction.Files(
            state: scene.files.state, lock: scene.files.lock, lockWait: 0,
            report: scene.dir.path("missing/report.json"),
            html: scene.files.html, prom: scene.files.prom)
        let transport = Channel(status: 200)
        var events: [RunTransaction.Event] = []
        let outcome = try scene.transaction(transport).run { events.append($0) }
        guard case .reportNotWritten(let path, let error) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(path == scene.dir.path("missing/report.json"))
        #expect(error as? SystemError == SystemError(errno: ENOENT, call: "open"))
        #expect(Self.names(events) == ["computed"])
        #expect(transport.sent.withLock { $0 } == 0)
        #expect(!scene.exists("state.json") && !scene.exists("report.html") && !scene.exists("uaaudit.prom"))
    }

    @Test func aStopBeforeTheCommitWritesNothing() throws {
        let scene = try Scene()
        let transport = Channel(status: 200)
        var events: [RunTransaction.Event] = []
        let stop = RunStop(signal: { SIGTERM }, delivery: DeliveryStop { 1 })
        let outcome = try scene.transaction(transport, stop: stop).run { events.append($0) }
        guard case .stopped(let signal) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(signal == SIGTERM)
        #expect(Self.names(events) == ["computed"])
        #expect(!scene.exists("state.json") && !scene.exists("report.json"))
    }

    @Test func aRunThatDeliversCommitsAndWritesItsMetrics() throws {
        let scene = try Scene()
        let transport = Channel(status: 200)
        var events: [RunTransaction.Event] = []
        let outcome = try scene.transaction(transport).run { events.append($0) }
        guard case .committed(let committed) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(
            Self.names(events) == [
                "computed", "reportWritten(written)", "formatChecked", "attempt([\"\(Self.hour)\"], delivered: true)",
                "deliveryEnded(sent: 1, pending: 0)",
            ])
        #expect(committed.computed.run.closedNow == [Self.hour])
        #expect(committed.computed.run.newAlerts == [Self.hour])
        #expect(committed.computed.generatedAt == Self.generatedAt)
        #expect(committed.alerting == [Self.hour])
        #expect(committed.html == .written)
        #expect(committed.metrics == .written)
        #expect(committed.stopSignal == nil)
        #expect(committed.delivery.attempts.map(\.hours) == [[Self.hour]])
        #expect(!committed.delivery.undelivered && !committed.delivery.stopped)
        #expect(transport.sent.withLock { $0 } == 1)
        // The state on disk is the one committed after delivery: the hour delivered, none pending.
        let state = try RunState.load(path: scene.files.state)
        #expect(state.alerts.pending == [])
        #expect(state.alerts.hours[Self.hour]?.status == .delivered)
        #expect(scene.exists("report.json") && scene.exists("report.html"))
        let metrics = try String(contentsOfFile: scene.files.prom!, encoding: .utf8)
        #expect(metrics.contains("uaaudit_alerts_pending 0\n"))
    }
}
