import FoundationEssentials

extension RulesFile {
    /// The file as `rules init` writes it: pretty JSON with sorted keys and a final newline.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}
