import UAAuditAudit

extension AlertPolicy {
    /// Whether a `run` hour alerts: only once closed, as decided when it closed (late lines
    /// do not change it). An open hour never alerts, whatever its share so far.
    static func alerts(_ hour: RunState.HourState) -> Bool {
        hour.closed && hour.breached
    }
}
