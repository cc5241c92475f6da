/// How a run hears that it is asked to stop: the CLI's SIGTERM and SIGINT handlers set it, the
/// run looks at its safe points. The core installs no handler of its own.
package struct RunStop: Sendable {
    /// The signal that asked the run to stop, if any (its number ends up in the exit status).
    let signal: @Sendable () -> Int32?
    /// The same requests, counted, for delivery: a second one aborts the attempt in flight.
    let delivery: DeliveryStop

    package init(signal: @escaping @Sendable () -> Int32?, delivery: DeliveryStop) {
        self.signal = signal
        self.delivery = delivery
    }

    /// Never asked to stop.
    static let never = RunStop(signal: { nil }, delivery: .never)
}
