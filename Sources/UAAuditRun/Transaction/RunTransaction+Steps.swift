import UAAuditAudit
import UAAuditInput
import UAAuditReport

/// The steps of ``RunTransaction/run(_:)`` that write or send.
extension RunTransaction {
    /// Writes the state atomically (its directory fsynced), into the room reserved for it when
    /// there is one.
    func commit(_ state: RunState, into room: AtomicFile.Reservation? = nil) throws {
        let bytes = try state.encoded()
        if let room {
            try room.write(bytes)
        } else {
            try AtomicFile.write(bytes, to: files.state, mode: 0o600)
        }
    }

    /// Sends the pending hours to the channels configured now (``LedgerDelivery``), telling
    /// the caller what became of each message as it comes.
    func deliver(_ state: inout RunState, report: Report, observe: (Event) -> Void) -> LedgerDelivery.Outcome {
        let dispatcher = AlertDispatcher(
            options: delivery, environment: environment, transport: transport, stop: stop.delivery)
        return LedgerDelivery.deliver(
            &state.alerts, report: report, host: settings.host, channels: channels,
            mode: settings.alertMode, dispatcher: dispatcher, at: report.generatedAt, links: links,
            shouldStop: { stop.signal() != nil },
            afterEach: { attempt in
                observe(.attempt(attempt))
                CrashPoint.here("after-channel")
            })
    }

    /// The hours this run closed that alert, by the report's own decision (`alerted`: over
    /// the threshold, or a drift alert): an hour closed by an earlier run has had its exit 1.
    static func alertedNow(_ outcome: RunEngine.RunOutcome) -> [String] {
        let closedNow = Set(outcome.closedNow.compactMap { HourKey(iso8601: $0) })
        // A backfill hour is never alerted, so it never makes exit 1 either.
        return outcome.report.hours.filter { entry in
            entry.alerted && entry.backfill != true
                && HourKey(iso8601: entry.hour).map { closedNow.contains($0) } == true
        }.map(\.hour)
    }
}
