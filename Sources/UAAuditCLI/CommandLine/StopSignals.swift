import Glibc
import Synchronization
import UAAuditRun

/// The signal that asked the run to stop (0: none), set from the signal handler.
/// A lock-free atomic store is async-signal-safe.
private let caughtSignal = Atomic<Int32>(0)
/// How many stop signals came (a second one aborts the delivery attempt in flight).
private let signalCount = Atomic<Int32>(0)

/// Notes SIGTERM and SIGINT instead of dying at once, so a run stops at the next safe point
/// without committing partial work.
struct StopSignals {
    init() {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGTERM, SIGINT] {
            signal(number) {
                caughtSignal.store($0, ordering: .relaxed)
                signalCount.add(1, ordering: .relaxed)
            }
            sigaddset(&unblock, number)
        }
        // A parent may have left them blocked (a test runner, a supervisor): they must arrive.
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// What the run looks at: the signal that asked it to stop, if any; and for delivery,
    /// stop after the attempt in flight, abort it on a second signal.
    var run: RunStop {
        RunStop(
            signal: {
                let value = caughtSignal.load(ordering: .relaxed)
                return value == 0 ? nil : value
            }, delivery: DeliveryStop { Int(signalCount.load(ordering: .relaxed)) })
    }
}
