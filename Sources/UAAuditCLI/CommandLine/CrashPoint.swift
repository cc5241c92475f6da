import Glibc

/// Failure injection for the crash-safety tests: in debug builds only, when
/// `UAAUDIT_TEST_CRASH_AT` names this point, the process kills itself with SIGKILL here.
enum CrashPoint {
    static func here(_ name: String) {
        #if DEBUG
            if let value = getenv("UAAUDIT_TEST_CRASH_AT"), String(cString: value) == name {
                raise(SIGKILL)
            }
        #endif
    }
}
