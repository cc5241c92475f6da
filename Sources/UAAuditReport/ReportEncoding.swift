import FoundationEssentials
import UAAuditInput

/// Encodes and decodes reports the one way uaaudit writes them: sorted keys, pretty, a final newline.
///
/// The hours are encoded one at a time and handed to the writer piece by piece, so encoding
/// holds one hour's JSON at a time, not a tree of the whole report (for a scan spanning
/// 300,000 hours that tree took gigabytes). The bytes are exactly what one `JSONEncoder`
/// pass over the whole report writes (a test checks it).
public enum ReportEncoding {
    /// Why a report could not be encoded: an internal error, never the input's (exit 7).
    public struct EncodingFailure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "cannot encode the report: \(message)" }
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    /// The whole report in memory (for small reports and tests).
    public static func encode(_ report: Report) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try write(report) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Hands the encoded report to `output` in pieces, in order. Errors from `output` are
    /// rethrown as they are; an encoding error is an ``EncodingFailure``.
    ///
    /// The top level is written key by key, as the encoder would (sorted, two spaces in), from
    /// the fields the report's own `encode(to:)` gives (``TopLevelFields``): each value
    /// encoded apart, and `hours` an hour at a time, four spaces in.
    public static func write(_ report: Report, to output: ([UInt8]) throws -> Void) throws {
        let encoder = encoder()
        let fields = TopLevelFields()
        do {
            try report.encode(to: fields)
        } catch {
            throw EncodingFailure(message: "\(error)")
        }
        guard fields.unsupported == nil else {
            throw EncodingFailure(message: "the report is not one JSON object (\(fields.unsupported!))")
        }
        var piece = Array("{\n".utf8)
        for (i, field) in fields.values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
            .enumerated()
        {
            if i > 0 { piece += Array(",\n".utf8) }
            piece += Array("  \"\(field.key)\" : ".utf8)
            if field.key == "hours" {
                guard !report.hours.isEmpty else {
                    piece += Array("[\n\n  ]".utf8)
                    continue
                }
                try output(piece + Array("[\n".utf8))
                for (h, hour) in report.hours.enumerated() {
                    var one: [UInt8]
                    do {
                        one = indented([UInt8](try encoder.encode(hour)), by: 4, first: true)
                    } catch {
                        throw EncodingFailure(message: "hour \(hour.hour): \(error)")
                    }
                    if h + 1 < report.hours.count { one += Array(",\n".utf8) }
                    try output(one)
                }
                piece = Array("\n  ]".utf8)
                continue
            }
            do {
                piece += indented([UInt8](try encoder.encode(AnyValue(field.value))), by: 2, first: false)
            } catch {
                throw EncodingFailure(message: "\(field.key): \(error)")
            }
        }
        try output(piece + Array("\n}\n".utf8))
    }

    /// `json` with `spaces` spaces before each of its lines (the first too when `first`), but
    /// the blank line inside an empty list or object, which the encoder leaves without them.
    private static func indented(_ json: [UInt8], by spaces: Int, first: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + json.count / 8 + spaces)
        let pad = [UInt8](repeating: 0x20, count: spaces)
        var lineStart = first
        for b in json {
            if lineStart, b != 0x0A { out += pad }
            out.append(b)
            lineStart = b == 0x0A
        }
        return out
    }

    /// Writes the report's JSON to the file at `path` an hour at a time, atomically: nothing
    /// holds the whole encoded report, and the previous file stays whole when it fails.
    package static func write(_ report: Report, toFile path: String) throws {
        try AtomicFile.write(to: path, mode: 0o644) { append in try write(report, to: append) }
    }

    public static func decode(_ bytes: [UInt8]) throws -> Report {
        try decode(JSONValue.parse(bytes))
    }

    /// The report a parsed JSON document holds (``JSONValueDecoder``).
    static func decode(_ json: JSONValue) throws -> Report {
        try JSONValueDecoder.decode(Report.self, from: json)
    }
}
