extension Report {
    /// An hour as the summary, the HTML page and the alert messages name it:
    /// `2026-11-29T17:00:00+08:00` → `2026-11-29 17:00+08:00` (any other text as it is).
    package static func shortHour(_ iso: String) -> String {
        let chars = Array(iso)
        guard chars.count == 25 else { return iso }
        return String(chars[0..<10]) + " " + String(chars[11..<16]) + String(chars[19...])
    }
}
