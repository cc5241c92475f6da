import FoundationEssentials

/// Decodes a `Decodable` value from a parsed ``JSONValue``: the one parse of a config, rules
/// file, state or report (which also found its duplicate keys and where a syntax error is) is
/// the one the value is decoded from, never the bytes a second time.
///
/// It decodes as `JSONDecoder` does, with its errors (`DecodingError`, with the coding path,
/// for ``JSONErrors``): a number is read from its text exactly (an integer type takes a whole
/// number that fits, `Decimal` the digits as written); a key absent or `null` is nil for an
/// optional; unknown keys are ignored. What it says was found is in the file's words (`an
/// object`, `a list`), never Swift's.
package enum JSONValueDecoder {
    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: Any].self, at: codingPath, found: value)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self, at: codingPath, found: value) }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    /// `type` from this value; the types `JSONDecoder` reads from the text itself (numbers,
    /// strings, `Decimal`) are read here the same way.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Decimal.self {
            guard case .number(let text) = value, let decimal = Decimal(string: text) else {
                throw mismatch(type, at: codingPath, found: value)
            }
            return decimal as! T
        }
        return try T(from: self)
    }
}

/// The error for `value` where a `type` was expected, worded as ``JSONErrors`` reads it.
private func mismatch(_ type: Any.Type, at path: [any CodingKey], found value: JSONValue) -> DecodingError {
    if value == .null {
        return .valueNotFound(
            type, .init(codingPath: path, debugDescription: "Expected \(type) value but found null instead."))
    }
    return .typeMismatch(
        type,
        .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(kind(of: value)) instead."))
}

private func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "a list"
    case .object: "an object"
    }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue!)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The scalar readers every container shares.
private enum Scalar {
    static func bool(_ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, at: path(), found: value) }
        return flag
    }

    static func string(_ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, at: path(), found: value) }
        return text
    }

    static func double(_ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> Double {
        guard case .number(let text) = value else { throw mismatch(Double.self, at: path(), found: value) }
        guard let number = Double(text), number.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "\(text) is too large a number"))
        }
        return number
    }

    /// A whole number of `T` from the number's text: `12`, or `12.0` and `1.2e1` (as
    /// `JSONDecoder` takes them); anything else is refused with the number as written.
    static func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        guard case .number(let text) = value else { throw mismatch(type, at: path(), found: value) }
        guard let digits = JSONNumber.wholeDigits(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(), debugDescription: "\(text) is not a whole number"))
        }
        guard let whole = T(digits) else {
            // Whole, but past the type (a count past 2^63).
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path(),
                    debugDescription: "\(text) is out of the range of a whole number here (\(T.min) to \(T.max))"))
        }
        return whole
    }
}

/// What a JSON number's text says, read the one way the decoder and the config check share.
enum JSONNumber {
    /// The digits of a number that is whole as written: `12` as it is, `12.0` and `1.2e1` as
    /// `12` (as `JSONDecoder` takes them; `Decimal` writes a whole value in digits only); nil for
    /// any other (`2.9999999999999999999` is not whole, though a `Double` reads it as 3).
    static func wholeDigits(_ text: String) -> String? {
        if text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) { return text }
        guard let decimal = Decimal(string: text) else { return nil }
        let digits = decimal.description
        return digits.contains(".") ? nil : digits
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try Scalar.bool(value(key), codingPath + [key])
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try Scalar.string(value(key), codingPath + [key])
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try Scalar.double(value(key), codingPath + [key])
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try Scalar.double(value(key), codingPath + [key]))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try Scalar.integer(type, value(key), codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The place of the next item, made only for an error.
    private func path() -> [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    /// The next item, read; the index moves on only once the item decoded.
    private mutating func take<T>(_ type: Any.Type, _ read: (JSONValue, () -> [any CodingKey]) throws -> T) throws -> T
    {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path(), debugDescription: "Unkeyed container is at end."))
        }
        let decoded = try read(items[currentIndex], path)
        currentIndex += 1
        return decoded
    }

    /// True, moving on, when the next item is null; false, staying, when it is anything else.
    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self, .init(codingPath: path(), debugDescription: "Unkeyed container is at end."))
        }
        guard items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type) { try Scalar.bool($0, $1()) } }
    mutating func decode(_ type: String.Type) throws -> String { try take(type) { try Scalar.string($0, $1()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try take(type) { try Scalar.double($0, $1()) } }
    mutating func decode(_ type: Float.Type) throws -> Float {
        Float(try take(Double.self) { try Scalar.double($0, $1()) })
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take(type) { try Scalar.integer(type, $0, $1()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take(type) { try Scalar.integer(type, $0, $1()) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try take(type) { try ValueDecoder(value: $0, codingPath: $1()).decodeValue(type) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try take([String: Any].self) { try ValueDecoder(value: $0, codingPath: $1()).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try take([Any].self) { try ValueDecoder(value: $0, codingPath: $1()).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try take((any Decoder).self) { ValueDecoder(value: $0, codingPath: $1()) }
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: JSONValue { decoder.value }

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalar.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Scalar.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Scalar.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalar.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalar.integer(type, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
