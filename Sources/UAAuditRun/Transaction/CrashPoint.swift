import Glibc
import UAAuditInput

/// Failure injection for the crash-safety tests, in debug builds only: when
/// `UAAUDIT_TEST_CRASH_AT` names this point the process kills itself with SIGKILL here, and
/// when `UAAUDIT_TEST_SIGNAL_AT` does, it sends itself SIGTERM (as an operator's `kill` would).
enum CrashPoint {
    static func here(_ name: String) {
        #if DEBUG
            if Syscalls.environment("UAAUDIT_TEST_CRASH_AT") == name { Syscalls.raise(SIGKILL) }
            // As an operator's `kill` would: to the process, not the thread (raise).
            if Syscalls.environment("UAAUDIT_TEST_SIGNAL_AT") == name { Syscalls.signalProcess(SIGTERM) }
        #endif
    }
}
