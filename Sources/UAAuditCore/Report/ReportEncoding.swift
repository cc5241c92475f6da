import Foundation

/// Encodes and decodes reports the one way uaaudit writes them: sorted keys, pretty, a final newline.
public enum ReportEncoding {
    public static func encode(_ report: Report) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(report))
        bytes.append(0x0A)
        return bytes
    }

    public static func decode(_ bytes: [UInt8]) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Data(bytes))
    }
}
