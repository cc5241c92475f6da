import Glibc
import UAAuditAudit
import UAAuditInput

enum Timestamps {
    /// Now in seconds since the epoch, or `SOURCE_DATE_EPOCH` when set (reproducible reports for tests and diffs).
    static func now(environment: [String: String]) -> Int64 {
        if let text = environment["SOURCE_DATE_EPOCH"], let value = Int64(text) { return value }
        return Int64(time(nil))
    }

    /// `2026-11-29T10:18:40Z`.
    static func iso8601UTC(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let (y, m, d) = CivilDate.civil(fromDays: days)
        func two(_ v: Int64) -> String { String(v).leftPadded(2) }
        return
            "\(String(y).leftPadded(4))-\(two(Int64(m)))-\(two(Int64(d)))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
