/// An `Encoder` that keeps the keys and values a value encodes at its top level, each value
/// as it is (``ReportEncoding`` writes them one at a time). Only a keyed top level is taken: any
/// other shape, or a nested container asked for at the top, is noted in ``unsupported``.
final class TopLevelFields: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The fields, in the order encoded (a nil value: JSON `null`).
    private(set) var values: [(key: String, value: (any Encodable)?)] = []
    /// What was asked for that is not a keyed top level, if anything.
    private(set) var unsupported: String?

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Fields<Key>(top: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        unsupported = "a list at the top level"
        return Ignored(top: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        unsupported = "a single value at the top level"
        return Ignored(top: self)
    }

    fileprivate func add(_ key: String, _ value: (any Encodable)?) { values.append((key, value)) }
    fileprivate func refuse(_ what: String) { unsupported = unsupported ?? what }

    private struct Fields<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let top: TopLevelFields
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { top.add(key.stringValue, nil) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: String, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { top.add(key.stringValue, value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { top.add(key.stringValue, value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            top.refuse("a nested object at \(key.stringValue)")
            return KeyedEncodingContainer(Fields<NestedKey>(top: top))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            top.refuse("a nested list at \(key.stringValue)")
            return Ignored(top: top)
        }

        mutating func superEncoder() -> any Encoder {
            top.refuse("a super encoder")
            return top
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            top.refuse("a super encoder at \(key.stringValue)")
            return top
        }
    }

    /// What an unsupported shape writes into: nothing.
    private struct Ignored: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let top: TopLevelFields
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(Fields<NestedKey>(top: top))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { top }
    }
}

/// A value of any encodable type, encoded as itself (JSON `null` for nil).
struct AnyValue: Encodable {
    let value: (any Encodable)?

    init(_ value: (any Encodable)?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        // Through the container, so that the encoder treats the value as its own type.
        var container = encoder.singleValueContainer()
        guard let value else { return try container.encodeNil() }
        try container.encode(value)
    }
}
