import Foundation
import Testing
import WebhookReceiver

/// `uaaudit run` with its state, lock and report on a full or a read-only disk: it says which
/// file and why, exits 6, commits nothing and sends nothing; once the disk is writable again
/// the next run counts every line once and sends the alert that became due.
@Suite struct RunStorageFaultTests {
    @Test(.requires(.tmpfs), arguments: DiskFault.allCases)
    func aRunThatCannotWriteCommitsNothingAndTheNextRunCatchesUp(fault: DiskFault) throws {
        guard let fs = try Tmpfs.mount(kib: 256, test: "run with its state on a \(fault) disk") else { return }
        let receiver = try WebhookReceiver(routes: ["/hook": [WebhookReceiver.Reply(status: 200)]])
        let hook = ["--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        let h = try RunHarness(storage: fs.path)
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")  // 2 of 152: over 0.1%
        #expect(try h.run(now: "2026-11-29T10:50:00Z", extra: hook).status == 0)  // hour 10 still open
        let state = try contents(h.state)
        let report = try contents(h.report)
        let files = ["report.json", "state.json", "state.json.lock"]
        #expect(try fs.names() == files)

        try h.append(10, hour: 11, minute: 1)  // hour 10 now closes, breached
        try fault.apply(to: fs)
        let failed = try h.run(now: "2026-11-29T11:06:00Z", extra: hook)
        #expect(failed.status == 6)
        let message =
            fault == .full
            ? "cannot write report \(h.report): \(fault.cause); state not committed, nothing lost"
            : "cannot open lock file \(h.state).lock: \(fault.cause); nothing was touched"
        #expect(failed.stderr == "uaaudit: \(message)\n")
        #expect(try contents(h.state) == state)
        #expect(try contents(h.report) == report)
        #expect(try fs.names() == files)
        #expect(try receiver.requests().isEmpty)

        try fault.undo(on: fs)
        #expect(try h.run(now: "2026-11-29T11:06:00Z", extra: hook).status == 0)
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: hook).status == 0)
        #expect(try h.reportedClasses() == ["urlsession": 160, "inconsistent": 2])
        #expect(
            try h.hours().map { [$0.0, "\($0.1)"] } == [
                ["2026-11-29T10:00:00+00:00", "152"], ["2026-11-29T11:00:00+00:00", "10"],
            ])
        let sent = try receiver.requests()
        #expect(sent.count == 1)
        let body = try unwrap(JSONSerialization.jsonObject(with: Data(sent.first?.body ?? [])) as? [String: Any])
        #expect((body["hours"] as? [[String: Any]])?.map { $0["hour"] as? String } == ["2026-11-29T10:00:00+00:00"])
        #expect(try fs.names() == files)
    }

    /// Issue 30: the report fits but the state does not. Nothing is sent that the state cannot
    /// record: the state (with the hour to deliver) is written before delivery, so a full state
    /// directory fails before any message goes out; three failing runs send nothing, and the
    /// first run with room sends the alert once.
    @Test(.requires(.tmpfs)) func aStateThatCannotBeCommittedSendsNothingAndTheAlertGoesOutOnce() throws {
        guard let fs = try Tmpfs.mount(kib: 256, test: "run with its state on a full disk") else { return }
        let receiver = try WebhookReceiver(routes: ["/hook": [WebhookReceiver.Reply(status: 200)]])
        let hook = ["--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        let reports = try Scratch()
        let h = try RunHarness(storage: fs.path, reportStorage: reports.url.path)
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        #expect(try h.run(now: "2026-11-29T10:50:00Z", extra: hook).status == 0)
        let state = try contents(h.state)

        try h.append(10, hour: 11, minute: 1)
        try fs.fill()
        for _ in 0..<3 {
            let failed = try h.run(now: "2026-11-29T11:06:00Z", extra: hook)
            #expect(failed.status == 6)
            #expect(
                failed.stderr
                    == "uaaudit: cannot commit state \(h.state): No space left on device; nothing was sent (the "
                    + "alerts stay pending), so that no message goes out that the state cannot record; the previous "
                    + "state is untouched\n")
            #expect(try contents(h.state) == state)
            #expect(try fs.names() == ["state.json", "state.json.lock"])
        }
        #expect(try receiver.requests().isEmpty)

        fs.unfill()
        #expect(try h.run(now: "2026-11-29T11:06:00Z", extra: hook).status == 0)
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: hook).status == 0)
        #expect(try h.reportedClasses() == ["urlsession": 160, "inconsistent": 2])
        let ids = try receiver.requests().map {
            try unwrap(JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any])["id"] as? String
        }
        #expect(ids.count == 1)
        #expect(ids.first != nil)
    }

    /// Third review, F4: the disk fills while the alert is being delivered (a slow channel).
    /// The room for the commit after delivery was taken before it, so that commit succeeds:
    /// the delivery is recorded and the next run sends nothing again (it sent the alert twice).
    @Test(.requires(.tmpfs)) func aDiskThatFillsDuringDeliveryDoesNotSendTheAlertTwice() throws {
        guard let fs = try Tmpfs.mount(kib: 256, test: "run with its state on a disk filled during delivery") else {
            return
        }
        let receiver = try WebhookReceiver(routes: ["/hook": [WebhookReceiver.Reply(status: 200, delay: 2)]])
        let hook = ["--webhook", "\(receiver.baseURL)/hook", "--webhook-kind", "generic"]
        let reports = try Scratch()
        let h = try RunHarness(storage: fs.path, reportStorage: reports.url.path)
        try h.append(150, hour: 10)
        try h.append(2, hour: 10, minute: 30, cls: "inconsistent")
        #expect(try h.run(now: "2026-11-29T10:50:00Z", extra: hook).status == 0)
        try h.append(10, hour: 11, minute: 1)
        let filled = DispatchSemaphore(value: 0)
        let filler = fs.filler
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 1)
            try? Tmpfs.fill(filler)
            filled.signal()
        }
        let delivering = try h.run(now: "2026-11-29T11:06:00Z", extra: hook)
        filled.wait()
        #expect(delivering.status == 0, "\(delivering.stderr)")
        #expect(try h.ledgerHours("delivered") == ["2026-11-29T10:00:00+00:00"])
        #expect(try fs.names() == ["state.json", "state.json.lock"])
        fs.unfill()
        #expect(try h.run(now: "2026-11-29T11:30:00Z", extra: hook).status == 0)
        #expect(try receiver.requests().count == 1)
    }
}
