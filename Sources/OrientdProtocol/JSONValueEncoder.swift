extension JSONValue {
    /// Any `Encodable` value as a `JSONValue`, so the daemon writes its messages without Foundation.
    /// Integers become `integer`, floating-point numbers `number`, `nil` optionals are left out
    /// (as `encodeIfPresent` does).
    public init(encoding value: some Encodable) throws {
        let root = JSONValueEncoder.Slot()
        try value.encode(to: JSONValueEncoder(slot: root, codingPath: []))
        self = root.built ?? .object([:])
    }

    /// Compact JSON text with the members of every object in sorted order and `/` unescaped: the
    /// bytes Foundation's JSONEncoder writes with `[.sortedKeys, .withoutEscapingSlashes]`.
    public var compactText: [UInt8] {
        var text: [UInt8] = []
        write(into: &text)
        return text
    }

    private func write(into text: inout [UInt8]) {
        switch self {
        case .null: text += "null".utf8
        case .bool(let value): text += (value ? "true" : "false").utf8
        case .integer(let value): text += String(value).utf8
        case .number(let value): text += Self.numberText(value).utf8
        case .string(let value): Self.write(string: value, into: &text)
        case .array(let items):
            text.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                item.write(into: &text)
            }
            text.append(UInt8(ascii: "]"))
        case .object(let members):
            text.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                Self.write(string: key, into: &text)
                text.append(UInt8(ascii: ":"))
                members[key]!.write(into: &text)
            }
            text.append(UInt8(ascii: "}"))
        }
    }

    /// Swift's shortest round-trip form, without a trailing `.0` (`1` not `1.0`, `0.1`, `1e-05`).
    /// JSON has no infinity or NaN: they are written as the largest finite value of their sign, and 0.
    static func numberText(_ value: Double) -> String {
        if value.isNaN { return "0" }
        if value.isInfinite { return numberText(value < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private static func write(string: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): text += #"\""#.utf8
            case UInt8(ascii: "\\"): text += #"\\"#.utf8
            case 0x0A: text += #"\n"#.utf8
            case 0x0D: text += #"\r"#.utf8
            case 0x09: text += #"\t"#.utf8
            case 0x08: text += #"\b"#.utf8
            case 0x0C: text += #"\f"#.utf8
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                text += #"\u00"#.utf8
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 0x0F)])
            default: text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }
}

/// An `Encoder` that builds a `JSONValue`. Each container writes into a `Slot` its parent holds, so a
/// nested container filled after it was handed out still lands in the parent.
private struct JSONValueEncoder: Encoder {
    final class Slot {
        var value: JSONValue?
        var members: [String: Slot] = [:]
        var items: [Slot] = []
        enum Kind { case single, object, array }
        var kind = Kind.single

        /// The value this slot and the slots under it hold.
        var built: JSONValue? {
            switch kind {
            case .single: value
            case .object: .object(members.compactMapValues(\.built))
            case .array: .array(items.map { $0.built ?? .null })
            }
        }
    }

    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.kind = .object
        return KeyedEncodingContainer(KeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.kind = .array
        return UnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(slot: slot, codingPath: codingPath)
    }

    /// A value encoded into `slot`: scalars directly, anything else through its own `encode(to:)`.
    static func encode(_ value: some Encodable, into slot: Slot, codingPath: [any CodingKey]) throws {
        switch value {
        case let value as JSONValue: slot.value = value
        case let value as String: slot.value = .string(value)
        case let value as Bool: slot.value = .bool(value)
        case let value as Double: slot.value = .number(value)
        // A Float as it prints ("0.1"), as JSONEncoder writes it, not as the Double it widens to.
        case let value as Float: slot.value = .number(Double("\(value)") ?? Double(value))
        case let value as any BinaryFloatingPoint: slot.value = .number(Double(value))
        case let value as any BinaryInteger:
            guard let exact = Int64(exactly: value) else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) does not fit in 64 bits"))
            }
            slot.value = .integer(exact)
        // Anything else encodes itself through containers; every scalar was handled above, so
        // this never comes back here with the same value.
        default: try value.encode(to: JSONValueEncoder(slot: slot, codingPath: codingPath))
        }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        let codingPath: [any CodingKey]

        private func child(_ key: Key) -> Slot {
            let child = Slot()
            slot.members[key.stringValue] = child
            return child
        }

        mutating func encodeNil(forKey key: Key) { child(key).value = .null }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try JSONValueEncoder.encode(value, into: child(key), codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            JSONValueEncoder(slot: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONValueEncoder(slot: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let child = Slot()
            slot.members["super"] = child
            return JSONValueEncoder(slot: child, codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder { JSONValueEncoder(slot: child(key), codingPath: codingPath + [key]) }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        var count: Int { slot.items.count }

        private func next() -> Slot {
            let child = Slot()
            slot.items.append(child)
            return child
        }

        mutating func encodeNil() { next().value = .null }
        mutating func encode(_ value: some Encodable) throws {
            try JSONValueEncoder.encode(value, into: next(), codingPath: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            JSONValueEncoder(slot: next(), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            JSONValueEncoder(slot: next(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { JSONValueEncoder(slot: next(), codingPath: codingPath) }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]

        mutating func encodeNil() { slot.value = .null }
        mutating func encode(_ value: some Encodable) throws {
            try JSONValueEncoder.encode(value, into: slot, codingPath: codingPath)
        }
    }
}
