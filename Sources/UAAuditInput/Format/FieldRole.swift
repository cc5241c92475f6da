/// What a `$variable` of a log format means to the audit.
///
/// Most variables are only skipped over; the audit reads the user agent, the time,
/// and (for scope rules and impact figures) the request and the status.
package enum FieldRole: Sendable, Equatable {
    case userAgent
    case timeLocal
    case timeISO8601
    case msec
    case request
    case uri
    case status
    /// Written by nginx's log module itself as digits (`$body_bytes_sent`, `$request_length` …).
    case digits
    /// Written by nginx's log module itself as `seconds.milliseconds` (`$request_time`).
    case decimal
    case other

    /// The role of an nginx variable name (without the `$`).
    init(variableName name: String) {
        switch name {
        case "http_user_agent": self = .userAgent
        case "time_local": self = .timeLocal
        case "time_iso8601": self = .timeISO8601
        case "msec": self = .msec
        case "request": self = .request
        case "uri", "request_uri", "document_uri": self = .uri
        case "status": self = .status
        case "bytes_sent", "body_bytes_sent", "request_length", "connection", "connection_requests":
            self = .digits
        case "request_time": self = .decimal
        default: self = .other
        }
    }

    /// True for the time variables; a format needs exactly one of them to bucket by hour.
    package var isTime: Bool {
        switch self {
        case .timeLocal, .timeISO8601, .msec: return true
        default: return false
        }
    }
}
