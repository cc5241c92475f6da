import FoundationEssentials
import UAAuditInput

/// Tells a report from a log by its content, reading a log no further than its first line.
package enum ReportFile {
    /// The most of a first line kept to tell: a JSON-lines access log's line is shorter.
    static let firstLineBytes = 1 << 20

    /// Whether the file is a report rather than a log: one JSON object whose `schema` is
    /// `uaaudit.report/…`. A JSON-lines access log (`escape=json`) is many objects and is a log.
    /// A file whose first line is a lone `{`, as uaaudit writes reports, is taken for a report
    /// even when it does not decode, so a damaged report is an error that says so, not a scan
    /// of JSON as log lines.
    ///
    /// Only a file that could be one JSON object is read whole (at most 256 MiB): one whose
    /// first line is a lone `{`, one of a single line, or one whose first line starts an
    /// object it does not finish. A log, whose first line is a whole object or no JSON at
    /// all, is read up to its second line, so `explain` of a big log costs no memory here.
    package static func isReport(path: String) -> Bool {
        guard let head = LogTail.head(path: path, keep: firstLineBytes), head.line.first == UInt8(ascii: "{") else {
            return false
        }
        let trimmed = head.line.filter { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }
        if trimmed == [UInt8(ascii: "{")] { return schemaIsReport(path: path) ?? true }
        guard head.lineComplete else { return false }
        if head.moreAfterLine, isObject(head.line) { return false }  // JSON lines: a log
        return schemaIsReport(path: path) ?? false
    }

    /// Whether the whole file decodes as a JSON object with a report's `schema`; nil when it
    /// does not decode (or cannot be read).
    private static func schemaIsReport(path: String) -> Bool? {
        guard let bytes = try? FileBytes.readAll(path: path, limit: 256 << 20) else { return nil }
        guard let object = (try? JSONValue.parse(bytes))?.object else { return nil }
        guard let schema = object["schema"], schema != .null else { return false }
        return schema.string.map { $0.hasPrefix("uaaudit.report/") }
    }

    private static func isObject(_ line: [UInt8]) -> Bool {
        (try? JSONValue.parse(line))?.object != nil
    }
}
