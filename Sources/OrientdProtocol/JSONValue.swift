/// Any JSON value. Request lines are read into this first (`Wire.decode`, with the parser below),
/// so a line that is not JSON and a line that is JSON of the wrong shape get different error codes.
///
/// A number is an `integer` when its value is a whole number that fits in 64 bits (`1`, `1.0`,
/// `1e2`, as Foundation's JSONDecoder read them), else a `number`. A number too large for a `Double` (`1e400`) is still JSON: it reads as
/// `number(±.infinity)`, so a member the server ignores never fails a request; a parameter that
/// must be finite refuses it.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decoding through a `Decoder` (Foundation's JSONDecoder) cannot see numbers beyond `Double`'s
    /// range; `Wire.decode` reads a line with this module's own parser, which can.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// JSON has no infinity: a `number(±.infinity)` (read from `1e400`) is written as the largest
    /// finite `Double` of its sign, so encoding a value that was read never fails.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value) where value.isInfinite:
            try container.encode(value < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension JSONValue {
    /// Parses one JSON text (RFC 8259: one value, whitespace around it, nothing else), or nil if
    /// `text` is not JSON. Arrays and objects nest at most `JSONParser.maximumDepth` deep; a
    /// member named twice keeps its first value (as Foundation's JSONDecoder did).
    init?<Bytes: Collection<UInt8>>(parsing text: Bytes) {
        var parser = JSONParser(Array(text))
        guard let value = parser.document() else { return nil }
        self = value
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes, without Foundation.
struct JSONParser {
    /// As deep as Foundation's JSONDecoder allows; a 4096-byte request line cannot use more.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() -> JSONValue? {
        skipWhitespace()
        guard let value = value() else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// Consumes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func value() -> JSONValue? {
        guard let byte = current else { return nil }
        return switch byte {
        case UInt8(ascii: "{"): object()
        case UInt8(ascii: "["): array()
        case UInt8(ascii: "\""): string().map(JSONValue.string)
        case UInt8(ascii: "t"): literal("true", .bool(true))
        case UInt8(ascii: "f"): literal("false", .bool(false))
        case UInt8(ascii: "n"): literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): number()
        default: nil
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard bytes[index..<index + count].elementsEqual(expected) else { return nil }
        index += count
        return value
    }

    private mutating func object() -> JSONValue? {
        index += 1  // {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard let member = value() else { return nil }
            if members[key] == nil { members[key] = member }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private mutating func array() -> JSONValue? {
        index += 1  // [
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        var items: [JSONValue] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(items) }
        while true {
            skipWhitespace()
            guard let item = value() else { return nil }
            items.append(item)
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array(items) }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// A string, from its opening quote: escapes resolved, control characters refused, the result
    /// valid UTF-8 (a lone surrogate, escaped or not, is refused).
    private mutating func string() -> String? {
        index += 1  // "
        var utf8: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // Invalid UTF-8 decodes with replacement characters, so it does not read back the same.
                let text = String(decoding: utf8, as: UTF8.self)
                return text.utf8.elementsEqual(utf8) ? text : nil
            case UInt8(ascii: "\\"):
                guard let escape = current else { return nil }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = escapedScalar() else { return nil }
                    UTF8.encode(scalar) { utf8.append($0) }
                default: return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                utf8.append(byte)
            }
        }
        return nil  // no closing quote
    }

    /// The scalar of a `\uXXXX` escape (its `\u` already read), joining a surrogate pair.
    private mutating func escapedScalar() -> Unicode.Scalar? {
        guard let first = hexQuad() else { return nil }
        switch first {
        case 0xD800..<0xDC00:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let second = hexQuad(),
                  (0xDC00..<0xE000).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00..<0xE000:
            return nil
        default:
            return Unicode.Scalar(first)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`. A whole number that fits in Int64 is an
    /// `integer` (`1.0` and `1e2` too, as Foundation's JSONDecoder reads them); any other is a
    /// `number`, `±infinity` when beyond `Double`'s range.
    private mutating func number() -> JSONValue? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // No leading zeros: "01" is not JSON.
        } else {
            guard digits() > 0 else { return nil }
        }
        var whole = true
        if take(UInt8(ascii: ".")) {
            whole = false
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            whole = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else { return nil }
        // Digits alone beyond Int64 stay a number even where the Double rounds into Int64's range.
        // 2^63 is the first whole Double beyond Int64; -2^63 itself fits.
        if !whole, double.isFinite, double == double.rounded(), double >= -0x1p63, double < 0x1p63 {
            return .integer(Int64(double))
        }
        return .number(double)
    }

    /// Consumes decimal digits; returns how many.
    private mutating func digits() -> Int {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }
}
