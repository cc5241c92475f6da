import Dispatch
import Glibc
import Synchronization

/// Notes SIGTERM and SIGINT instead of dying at once, so a run stops at the next safe point
/// without committing partial work.
final class StopSignals: @unchecked Sendable {
    // The dispatch sources are set up once in init and only kept alive afterwards.
    private let caughtSignal = Atomic<Int32>(0)
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in self.caughtSignal.store(number, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal that asked the run to stop, if any.
    var caught: Int32? {
        let value = caughtSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
