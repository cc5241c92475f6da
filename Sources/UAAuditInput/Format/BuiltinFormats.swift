/// The log formats uaaudit knows by name.
package enum BuiltinFormats {
    /// The format the operators' nginx writes; uaaudit's default.
    package static let uaLog =
        "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
        + "\"$http_referer\" \"$http_user_agent\" rt=$request_time uct=\"$upstream_connect_time\" "
        + "uht=\"$upstream_header_time\" urt=\"$upstream_response_time\""

    /// nginx's predefined `combined` format.
    static let combined =
        "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
        + "\"$http_referer\" \"$http_user_agent\""

    package static let names = ["ua_log", "combined"]

    /// The compiled built-in format called `name`.
    package static func named(_ name: String) throws -> LogFormat {
        switch name {
        case "ua_log": return try LogFormat(uaLog, name: name)
        case "combined": return try LogFormat(combined, name: name)
        default: throw FormatError.unknownBuiltin(name: name, known: names)
        }
    }
}
