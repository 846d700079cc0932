import OrientdProtocol
import Testing

/// `Wire.decode`, which reads every request line: RFC 8259 JSON, numbers of any size included.
@Suite struct JSONParsingTests {
    private func decode(_ text: String) -> JSONValue? { Wire.decode(Array(text.utf8)) }

    /// A member the server ignores never fails a request, whatever number it holds: Foundation's
    /// JSONDecoder refused `1e400` (beyond Double), so the request was answered invalid-json.
    @Test("a request with an ignored member holding a number beyond Double", arguments: ["1e400", "-1e400", "1E+400", "123456789e999"])
    func ignoredHugeNumbersDoNotFailTheRequest(number: String) throws {
        let request = try Request.parse(Array(#"{"id":1,"method":"ping","x":\#(number)}"#.utf8)).get()
        #expect(request.id == .integer(1))
        #expect(request.method == "ping")
        #expect(request.parameters["x"] == .number(number.hasPrefix("-") ? -.infinity : .infinity))
    }

    @Test func hugeNumbersReadAsInfinityAndTinyOnesAsZero() {
        #expect(decode("[1e400,-1e400,1e-400,-2.5e-999]") == .array([.number(.infinity), .number(-.infinity), .integer(0), .integer(0)]))
    }

    /// A parameter that must be a finite number still refuses one beyond Double.
    @Test("an angleRate beyond Double, or too slow to mean anything, is invalid-params", arguments: ["1e400", "-1e400", "1e-400", "1e-320", "0.001"])
    func hugeAngleRateIsRefused(rate: String) throws {
        let request = try Request.parse(Array(#"{"id":1,"method":"subscribe","events":["angles"],"angleRate":\#(rate)}"#.utf8)).get()
        let error = #expect(throws: ProtocolError.self) { try SubscribeParameters(request.parameters) }
        #expect(error?.code == .invalidParameters)
    }

    /// Whole numbers are integers as Foundation's JSONDecoder read them, so ids like `1.0` keep working.
    @Test func integersAndNumbers() throws {
        #expect(decode("[0,-0,7,-7,1.0,1e2,1.5e1,9223372036854775807,-9223372036854775808]") == .array([
            .integer(0), .integer(0), .integer(7), .integer(-7), .integer(1), .integer(100), .integer(15),
            .integer(.max), .integer(.min)]))
        #expect(decode("[0.5,-2.25,9223372036854775808,-9223372036854775809,1e19]") == .array([
            .number(0.5), .number(-2.25), .number(9223372036854775808.0), .number(-9223372036854775809.0), .number(1e19)]))
        #expect(try Request.parse(Array(#"{"id":2.0,"method":"get"}"#.utf8)).get().id == .integer(2))
    }

    @Test func valuesOfEveryKind() {
        #expect(decode(#" { "a" : [ true , false , null , "x" , {} , [] ] , "b" : { "c" : -1.5 } } "#) == .object([
            "a": .array([.bool(true), .bool(false), .null, .string("x"), .object([:]), .array([])]),
            "b": .object(["c": .number(-1.5)]),
        ]))
        #expect(decode("\t\r\n 3 \n") == .integer(3))
        #expect(decode(#"{"a":1,"a":2}"#) == .object(["a": .integer(1)]))  // the first, as Foundation's JSONDecoder kept
    }

    @Test func stringEscapesAndUnicode() {
        #expect(decode(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(decode(#""\u0041\u00e9\u20AC\ud83d\ude00\u0000""#) == .string("Aé€😀\u{0}"))
        #expect(decode("\"é€😀\"") == .string("é€😀"))
    }

    /// Strict RFC 8259: trailing commas too are refused (Foundation's JSONDecoder let them pass).
    @Test("texts that are not JSON", arguments: [
        "", " ", "nope", "{", "}", "[", "[1,]", #"{"a":1,}"#, "[1 2]", #"{"a" 1}"#, #"{a:1}"#, "{1:2}", "01", "-", "1.", ".5", "+1",
        "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "tru", "nul", "True", "[1] x", "1 2", "\"abc", "'a'",
        "\"a\tb\"", "\"a\nb\"", #""\x""#, #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#,
    ])
    func notJSON(text: String) {
        #expect(decode(text) == nil)
    }

    @Test func invalidUTF8IsNotJSON() {
        #expect(Wire.decode([0x22, 0xFF, 0x22]) == nil)                  // not UTF-8 at all
        #expect(Wire.decode([0x22, 0xC3, 0x22]) == nil)                  // a truncated sequence
        #expect(Wire.decode([0x22, 0xED, 0xA0, 0x80, 0x22]) == nil)      // an encoded surrogate
        #expect(Wire.decode([0x5B, 0xC3, 0xA9, 0x5D]) == nil)            // UTF-8 outside a string
    }

    @Test func nestingIsLimited() {
        #expect(decode(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) != nil)
        #expect(decode(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)) == nil)
        #expect(decode(String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)) == nil)
    }

    /// JSON has no infinity: writing a value read from `1e400` gives the largest finite number, never
    /// an encoding failure (error messages quote parameters with `compactDescription`).
    @Test func infinityIsWrittenAsTheLargestFiniteNumber() {
        #expect(JSONValue.array([.number(.infinity), .number(-.infinity)]).compactDescription
                == "[1.7976931348623157e+308,-1.7976931348623157e+308]")
    }
}
