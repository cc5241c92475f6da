import Glibc

/// Failure injection for the crash-safety tests, in debug builds only: when
/// `UAAUDIT_TEST_CRASH_AT` names this point the process kills itself with SIGKILL here, and
/// when `UAAUDIT_TEST_SIGNAL_AT` does, it sends itself SIGTERM (as an operator's `kill` would).
enum CrashPoint {
    static func here(_ name: String) {
        #if DEBUG
            if let value = getenv("UAAUDIT_TEST_CRASH_AT"), String(cString: value) == name {
                raise(SIGKILL)
            }
            if let value = getenv("UAAUDIT_TEST_SIGNAL_AT"), String(cString: value) == name {
                kill(getpid(), SIGTERM)
            }
        #endif
    }
}
