/// Whether the operator asked delivery to stop (SIGTERM or SIGINT, read by the CLI).
///
/// After a first request the attempt in flight finishes (bounded by its timeout) but nothing
/// more is tried: no retry, no backoff wait (waits are cut short). After a second, the attempt
/// in flight is aborted too. The transport and the waits poll it every ``pollInterval``.
package struct DeliveryStop: Sendable {
    /// How many stop requests came so far.
    let requests: @Sendable () -> Int

    package init(requests: @escaping @Sendable () -> Int) { self.requests = requests }

    /// Never stops.
    static let never = DeliveryStop { 0 }

    /// Seconds between two looks at ``requests`` while waiting.
    package static let pollInterval = 0.05

    /// No further attempt or wait.
    var requested: Bool { requests() >= 1 }
    /// Not even the attempt in flight.
    var aborted: Bool { requests() >= 2 }
}
