extension JSONValue {
    /// The value read as one of the protocol's types, member by member, so a line is parsed once
    /// (by `Wire.decode`) and a member renamed in the type no longer matches the wire. Members the
    /// type does not know are ignored, as protocol v1 asks of clients.
    public func decoded<T: Decodable>(as type: T.Type) throws(ServerMessageError) -> T {
        do {
            return try JSONValueDecoder.value(type, from: self, at: [])
        } catch let error as DecodingError {
            throw .malformed(what: String(describing: type), reason: Self.explain(error))
        } catch {
            throw .malformed(what: String(describing: type), reason: "\(error)")
        }
    }

    /// A decoding error as one sentence naming the member at fault.
    private static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the object" : "member " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(place(context.codingPath + [key])) is missing"
        case .valueNotFound(_, let context): return "\(place(context.codingPath)) is null"
        case .typeMismatch(_, let context), .dataCorrupted(let context): return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A `Decoder` over a `JSONValue` already read.
private struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Self.mismatch([String: JSONValue].self, value, codingPath, expected: "an object")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw Self.mismatch([JSONValue].self, value, codingPath, expected: "an array")
        }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    /// `value` as `T`: scalars directly, anything else through its `init(from:)`.
    static func value<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if T.self == Bool.self {
            guard case .bool(let flag) = value else { throw mismatch(type, value, path, expected: "true or false") }
            return flag as! T
        }
        if T.self == String.self {
            guard case .string(let text) = value else { throw mismatch(type, value, path, expected: "a string") }
            return text as! T
        }
        if T.self == Double.self || T.self == Float.self {
            let number: Double
            switch value {
            case .integer(let integer): number = Double(integer)
            case .number(let real): number = real
            default: throw mismatch(type, value, path, expected: "a number")
            }
            return T.self == Float.self ? Float(number) as! T : number as! T
        }
        if let integerType = T.self as? any FixedWidthInteger.Type {
            guard let integer = exactly(integerType, value) else {
                throw mismatch(type, value, path, expected: "an integer that fits \(type)")
            }
            return integer as! T
        }
        return try T(from: JSONValueDecoder(value: value, codingPath: path))
    }

    private static func exactly<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue) -> I? {
        switch value {
        case .integer(let integer): I(exactly: integer)
        case .number(let real): I(exactly: real)
        default: nil
        }
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey], expected: String) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(expected), got null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(expected), got \(value.compactDescription)"))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONValueDecoder.value(type, from: member(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private var path: [any CodingKey] { codingPath + [Index(currentIndex)] }

    private func next() throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: path, debugDescription: "the array has only \(items.count) items"))
        }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try next() == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try JSONValueDecoder.value(type, from: next(), at: path)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try JSONValueDecoder(value: next(), codingPath: path).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try JSONValueDecoder(value: next(), codingPath: path).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = JSONValueDecoder(value: try next(), codingPath: path)
        currentIndex += 1
        return decoder
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder.value(type, from: value, at: codingPath)
    }
}
