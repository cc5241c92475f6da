/// What a log format carries of what the audit reads: the UA and a time (needed), and the
/// request path, the status and a client key (for the cost and split-client figures).
package struct FormatNeeds: Sendable, Equatable {
    var userAgent: Bool
    var time: Bool
    var path: Bool
    var status: Bool
    /// The first variable that can key clients (`remote_addr`, a device-id header …), if any.
    package var clientKey: String?

    /// Reads the variables of a format string (it need not compile: a format without the UA is
    /// what `doctor` must describe).
    package init(formatString: String) {
        let names = FormatNeeds.variables(in: formatString)
        let roles = names.map(FieldRole.init(variableName:))
        userAgent = roles.contains(.userAgent)
        time = roles.contains(where: \.isTime)
        path = roles.contains(.request) || roles.contains(.uri)
        status = roles.contains(.status)
        clientKey = names.first { FormatNeeds.clientKeys.contains($0) || $0.hasPrefix("http_x_") }
    }

    /// The variables that identify a client well enough for the split figures.
    static let clientKeys = ["remote_addr", "binary_remote_addr", "realip_remote_addr", "http_x_forwarded_for"]

    /// True when the audit can run on it: the UA and a time.
    package var auditable: Bool { userAgent && time }
    /// True when every figure can be computed.
    package var complete: Bool { auditable && path && status && clientKey != nil }

    /// What is missing, in words (empty when nothing is).
    package var missing: [String] {
        var result: [String] = []
        if !userAgent { result.append("$http_user_agent (the UA: nothing to audit without it)") }
        if !time { result.append("$time_local, $time_iso8601 or $msec (a time: needed to count per hour)") }
        if !path { result.append("$request or $request_uri (the path: for the cost figures)") }
        if !status { result.append("$status (for the cost figures)") }
        if clientKey == nil { result.append("a client key such as $remote_addr (for the split-client figures)") }
        return result
    }

    /// `$name` and `${name}` variable names, in order.
    static func variables(in format: String) -> [String] {
        let bytes = Array(format.utf8)
        var names: [String] = []
        var i = 0
        func isName(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "$") else {
                i += 1
                continue
            }
            var j = i + 1
            let braced = j < bytes.count && bytes[j] == UInt8(ascii: "{")
            if braced { j += 1 }
            let start = j
            while j < bytes.count, isName(bytes[j]) { j += 1 }
            if j > start { names.append(String(decoding: bytes[start..<j], as: UTF8.self)) }
            i = braced && j < bytes.count ? j + 1 : max(j, i + 1)
        }
        return names
    }
}
