import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct FieldRoleTests {
    @Test(arguments: [
        ("http_user_agent", FieldRole.userAgent),
        ("time_local", .timeLocal),
        ("time_iso8601", .timeISO8601),
        ("msec", .msec),
        ("request", .request),
        ("uri", .uri),
        ("request_uri", .uri),
        ("document_uri", .uri),
        ("status", .status),
        ("bytes_sent", .digits),
        ("body_bytes_sent", .digits),
        ("request_length", .digits),
        ("connection", .digits),
        ("connection_requests", .digits),
        ("request_time", .decimal),
        ("remote_addr", .other),
        ("remote_user", .other),
        ("http_referer", .other),
        ("upstream_connect_time", .other),
        ("upstream_response_time", .other),
        ("http_x_forwarded_for", .other),
        // Names are case-sensitive, as in nginx.
        ("HTTP_USER_AGENT", .other),
        ("Status", .other),
        ("", .other),
    ])
    func roleOfVariableName(name: String, role: FieldRole) {
        #expect(FieldRole(variableName: name) == role)
    }

    @Test(arguments: [
        (FieldRole.timeLocal, true), (.timeISO8601, true), (.msec, true),
        (.userAgent, false), (.request, false), (.uri, false), (.status, false),
        (.digits, false), (.decimal, false), (.other, false),
    ])
    func onlyTimeRolesAreTime(role: FieldRole, isTime: Bool) {
        #expect(role.isTime == isTime)
    }
}
