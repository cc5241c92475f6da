import FoundationEssentials

/// The one way alert payloads are encoded: compact, keys sorted, slashes left alone.
enum AlertJSON {
    static func encode(_ value: some Encodable) throws(DeliveryFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return [UInt8](try encoder.encode(value))
        } catch {
            throw DeliveryFailure.configuration("cannot encode the payload: \(error)")
        }
    }

    /// The size of `value` encoded, or `Int.max` when it cannot be encoded.
    static func size(_ value: some Encodable) -> Int {
        (try? encode(value))?.count ?? Int.max
    }
}
