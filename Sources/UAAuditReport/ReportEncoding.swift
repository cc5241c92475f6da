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
    public static func write(_ report: Report, to output: ([UInt8]) throws -> Void) throws {
        let encoder = encoder()
        var shell = report
        shell.hours = []
        let outer: [UInt8]
        do {
            outer = [UInt8](try encoder.encode(shell))
        } catch {
            throw EncodingFailure(message: "\(error)")
        }
        // The empty list as the encoder writes it at the report's top level.
        let marker = Array("\"hours\" : [\n\n  ]".utf8)
        guard let at = find(marker, in: outer) else {
            throw EncodingFailure(message: "no hours list in the encoded report")
        }
        if report.hours.isEmpty {
            try output(outer + [0x0A])
            return
        }
        try output(Array(outer[..<at]) + Array("\"hours\" : [\n".utf8))
        for (i, hour) in report.hours.enumerated() {
            let one: Data
            do {
                one = try encoder.encode(hour)
            } catch {
                throw EncodingFailure(message: "hour \(hour.hour): \(error)")
            }
            // Each line two levels in, as an element of the top-level "hours" list (the
            // encoder leaves the blank line of an empty list without indentation).
            var piece: [UInt8] = []
            piece.reserveCapacity(one.count + one.count / 8 + 8)
            var lineStart = true
            for b in one {
                if lineStart, b != 0x0A { piece.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) }
                piece.append(b)
                lineStart = b == 0x0A
            }
            if i + 1 < report.hours.count { piece.append(contentsOf: [0x2C, 0x0A]) }
            try output(piece)
        }
        try output(Array("\n  ]".utf8) + Array(outer[(at + marker.count)...]) + [0x0A])
    }

    /// Writes the report's JSON to the file at `path` an hour at a time, atomically: nothing
    /// holds the whole encoded report, and the previous file stays whole when it fails.
    package static func write(_ report: Report, toFile path: String) throws {
        try AtomicFile.write(to: path, mode: 0o644) { append in try write(report, to: append) }
    }

    public static func decode(_ bytes: [UInt8]) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(bytes))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
