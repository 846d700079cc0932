import OrientdProtocol
import Testing

@Suite struct RequestTests {
    private func parse(_ text: String) -> Result<Request, RequestFailure> { Request.parse(Array(text.utf8)) }

    @Test func readsIntegerAndStringIDs() throws {
        #expect(try parse(#"{"id": 7, "method": "get"}"#).get() == Request(id: .integer(7), method: "get"))
        #expect(try parse(#"{"method":"subscribe","id":"a-1","extra":[1,2]}"#).get() == Request(id: .string("a-1"), method: "subscribe", parameters: ["extra": .array([.integer(1), .integer(2)])]))
    }

    @Test("lines that are not JSON", arguments: ["nope", "{", #"{"id":1,"method":"get""#, ""])
    func invalidJSON(text: String) {
        let failure = parse(text).failureValue
        #expect(failure?.id == nil)
        #expect(failure?.error.code == .invalidJSON)
    }

    @Test func aRequestMustBeAnObject() throws {
        let failure = try #require(parse("[1,2]").failureValue)
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.id == nil)
    }

    @Test func missingMethodKeepsTheID() throws {
        let failure = try #require(parse(#"{"id": 3}"#).failureValue)
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.id == .integer(3))
    }

    @Test("ids that are neither integers nor strings", arguments: [#"{"id": 1.5, "method": "get"}"#, #"{"id": null, "method": "get"}"#, #"{"method": "get"}"#])
    func badIDs(text: String) throws {
        let failure = try #require(parse(text).failureValue)
        #expect(failure.error.code == .invalidRequest)
    }

    @Test func errorRepliesLeaveOutAnUnknownID() {
        let line = String(decoding: Wire.line(ErrorReply(id: nil, error: ProtocolError(.invalidJSON, "x"))), as: UTF8.self)
        #expect(line == #"{"error":{"code":"invalid-json","message":"x"}}"# + "\n")
        #expect(!line.contains("null"))
    }

    @Test func socketPathPrecedence() {
        #expect(Wire.socketPath(explicit: "/a", environment: ["ORIENTD_SOCKET": "/b"]) == "/a")
        #expect(Wire.socketPath(explicit: nil, environment: ["ORIENTD_SOCKET": "/b"]) == "/b")
        #expect(Wire.socketPath(explicit: nil, environment: [:]) == "/run/orientd.sock")
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
