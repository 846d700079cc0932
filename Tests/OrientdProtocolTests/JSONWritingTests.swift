import Foundation
import OrientdProtocol
import Testing

/// The daemon writes its lines with its own encoder (it does not link Foundation); they must be
/// the bytes Foundation's JSONEncoder wrote before, so no client sees a difference.
@Suite struct JSONWritingTests {
    private func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func ours(_ value: some Encodable) -> String {
        String(decoding: Wire.line(value).dropLast(), as: UTF8.self)
    }

    @Test(arguments: [0.0, -0.0, 1, -1, 0.1, 0.5, 1.5, 1e-5, 1.25e-7, 123456789.125, 1795290909.799, 1e16, 1e21, 1e300,
                      -2.5e-300, 9.80665, 1.0 / 3, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude, 0x1p53, 4096])
    func numbersAsFoundationWroteThem(_ value: Double) throws {
        #expect(ours([value]) == (try foundation([value])))
    }

    @Test func stringsAsFoundationWroteThem() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) } + [0x7F], as: UTF8.self)
        for text in ["", "plain", #"quote " backslash \ slash /"#, controls, "é ünïcode 🙂 \u{2028}\u{2029}", "tab\tnew\nline\r"] {
            #expect(ours([text]) == (try foundation([text])))
        }
    }

    private struct EveryScalar: Codable {
        var int8: Int8 = -8, int16: Int16 = -16, int32: Int32 = -32, int64: Int64 = .min, int: Int = .max
        var uint8: UInt8 = 8, uint16: UInt16 = 16, uint32: UInt32 = 32, uint64: UInt64 = 64, uint: UInt = 1 << 40
        var float: Float = 0.1, double: Double = 0.1, bool = true
    }

    /// Every integer and floating-point type, not only those the messages use today: a type that
    /// fell through to its own `encode(to:)` once recursed until the stack overflowed.
    @Test func everyScalarAsFoundationWroteIt() throws {
        #expect(ours(EveryScalar()) == (try foundation(EveryScalar())))
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [UInt64.max]) }
    }

    private struct Nested: Codable {
        enum Kind: String, Codable { case one, two }
        var kind: Kind
        var optional: Int?
        var present: Double?
        var list: [Int]
        var map: [String: Bool]
        var inner: Inner
        struct Inner: Codable { var z: String; var a: [Inner]? }
    }

    @Test func structsAsFoundationWroteThem() throws {
        let value = Nested(kind: .two, optional: nil, present: 2, list: [3, 1, 2], map: ["b": true, "a": false, "é": true],
                           inner: .init(z: "z", a: [.init(z: "y", a: nil), .init(z: "x", a: [])]))
        #expect(ours(value) == (try foundation(value)))
        #expect(ours(JSONValue.object(["k": .array([.null, .integer(-7), .number(.infinity), .bool(true)])]))
                == (try foundation(JSONValue.object(["k": .array([.null, .integer(-7), .number(.infinity), .bool(true)])]))))
    }
}
