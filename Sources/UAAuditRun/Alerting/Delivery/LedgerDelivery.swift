import UAAuditReport

/// Sends a run's pending hours to the channels configured now and moves them along the ledger.
///
/// Each channel gets every pending hour it has not taken (each hour under its ledger id): in
/// one message, or, when the channel's size limit cannot hold them all, in several, each hour
/// in exactly one (``AlertDispatcher/batches(of:for:)``). A channel is recorded as having
/// taken exactly the hours of the messages it accepted, at once, so a run stopped between two
/// messages commits what was delivered; `shouldStop` is asked before each message. After a
/// refusal the channel's later messages wait for the next run.
package enum LedgerDelivery {
    /// What one channel was sent and what became of it.
    package struct Attempt: Sendable, Equatable {
        package var hours: [String]
        package var result: DeliveryResult
    }

    package struct Outcome: Sendable, Equatable {
        var attempts: [Attempt] = []
        /// True when `shouldStop` said so before every channel had its turn.
        var stopped = false

        /// True when some channel refused what it was sent.
        package var undelivered: Bool { attempts.contains { !$0.result.delivered } }
    }

    static func deliver(
        _ ledger: inout AlertLedger, report: Report, host: String, channels: [AlertChannel],
        mode: AlertLedger.Mode, dispatcher: AlertDispatcher, at time: String, links: AlertLinks = AlertLinks(),
        shouldStop: () -> Bool = { false }, afterEach: (Attempt) -> Void = { _ in }
    ) -> Outcome {
        var outcome = Outcome()
        for channel in channels {
            let hours = ledger.hours(for: channel.key, mode: mode)
            guard !hours.isEmpty else { continue }
            if shouldStop() {
                outcome.stopped = true
                break
            }
            guard let notification = AlertNotification(report: report, host: host, hours: hours, links: links)
            else { continue }
            for (index, batch) in dispatcher.batches(of: notification, for: channel).enumerated() {
                if index > 0 && shouldStop() {
                    outcome.stopped = true
                    return outcome
                }
                // Only the hours the report still has (all pending hours are kept in the state).
                let sent = batch.hours.map(\.hour)
                let result = dispatcher.deliver(batch, to: [channel])[0]
                if result.delivered {
                    ledger.delivered(sent, to: channel.key, at: time, mode: mode)
                } else {
                    ledger.failed(sent, error: result.description)
                }
                outcome.attempts.append(Attempt(hours: sent, result: result))
                afterEach(outcome.attempts[outcome.attempts.count - 1])
                if !result.delivered { break }
            }
        }
        return outcome
    }
}
