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

    /// Issue 44: a misspelt member is refused, naming the nearest one the method takes, never
    /// taken for its default; a method's own members pass.
    @Test func aMemberTheMethodDoesNotTakeIsRefused() throws {
        let misspelt = try parse(#"{"id":1,"method":"subscribe","event":["angles"]}"#).get()
        let refusal = try #require(misspelt.unknownMember(for: .subscribe))
        #expect(refusal.code == .invalidParameters)
        #expect(refusal.message.hasPrefix(#"unknown member "event"; did you mean "events"? subscribe takes: events, "#), "\(refusal.message)")
        let interface = try parse(#"{"id":1,"method":"subscribe","supportedInterfaceOrientation":["all"]}"#).get()
        #expect(interface.unknownMember(for: .subscribe)?.message.contains(#"did you mean "supportedInterfaceOrientations"?"#) == true)
        let full = try parse(#"{"id":1,"method":"subscribe","events":["angles"],"orientations":["portrait"],"supportedInterfaceOrientations":["all"],"angleRate":5,"device":"local:"}"#).get()
        #expect(full.unknownMember(for: .subscribe) == nil)
        #expect(try parse(#"{"id":1,"method":"get","device":"local:"}"#).get().unknownMember(for: .get) == nil)
        let status = try parse(#"{"id":1,"method":"status","device":"local:"}"#).get()
        #expect(status.unknownMember(for: .status)?.message == #"unknown member "device"; status takes no members beside id and method"#)
        let far = try parse(#"{"id":1,"method":"get","xyzzy":1}"#).get()
        #expect(far.unknownMember(for: .get)?.message == #"unknown member "xyzzy"; get takes: device"#)
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

@Suite struct SubscribeParameterTests {
    private func parameters(_ text: String) throws -> SubscribeParameters {
        guard case .success(let request) = Request.parse(Array(text.utf8)) else { throw ProtocolError(.invalidJSON, text) }
        return try SubscribeParameters(request.parameters)
    }

    @Test func defaultsAreDeviceOrientationForEveryOrientation() throws {
        let defaults = try parameters(#"{"id":1,"method":"subscribe"}"#)
        #expect(defaults.events == [.deviceOrientationDidChange])
        #expect(defaults.orientations.count == 7)
        #expect(defaults.supportedInterfaceOrientations.count == 4)
        #expect(defaults.angleRate == nil)
    }

    @Test func masksStandForTheirOrientationsInOrder() throws {
        let landscape = try parameters(#"{"id":1,"method":"subscribe","supportedInterfaceOrientations":["landscape"]}"#)
        #expect(landscape.supportedInterfaceOrientations == [.landscapeLeft, .landscapeRight])
        let mixed = try parameters(#"{"id":1,"method":"subscribe","supportedInterfaceOrientations":["portraitUpsideDown","allButUpsideDown"]}"#)
        #expect(mixed.supportedInterfaceOrientations == [.portraitUpsideDown, .portrait, .landscapeLeft, .landscapeRight])
    }

    @Test("invalid parameters name the member", arguments: [
        (#"{"id":1,"method":"subscribe","events":"angles"}"#, "\"events\" must be an array"),
        (#"{"id":1,"method":"subscribe","events":[]}"#, "at least one event"),
        (#"{"id":1,"method":"subscribe","orientations":["sideways"]}"#, "\"orientations\" holds \"sideways\""),
        (#"{"id":1,"method":"subscribe","supportedInterfaceOrientations":[]}"#, "at least one orientation"),
        (#"{"id":1,"method":"subscribe","angleRate":0}"#, "\"angleRate\" must be a number"),
        (#"{"id":1,"method":"subscribe","angleRate":null}"#, "\"angleRate\" must be a number"),
    ])
    func invalid(text: String, message: String) throws {
        #expect {
            try parameters(text)
        } throws: { error in
            (error as? ProtocolError)?.code == .invalidParameters && (error as? ProtocolError)?.message.contains(message) == true
        }
    }
}

/// The typed subscribe request every client builds: what it sends reads back as what it asked for.
@Suite struct SubscribeRequestTests {
    @Test(arguments: [
        SubscribeParameters(events: [.deviceOrientationDidChange]),
        SubscribeParameters(events: [.deviceOrientationDidChange, .rotationLockDidChange], orientations: [.portrait, .faceUp]),
        SubscribeParameters(events: [.interfaceOrientationDidChange], supportedInterfaceOrientations: [.landscapeRight, .portrait]),
        SubscribeParameters(events: [.angles], angleRate: 10),
        SubscribeParameters(events: [.angles], angleRate: 2.5),
        SubscribeParameters(events: [.proximityStateDidChange, .ambientLightDidChange]),
    ])
    func aRequestReadsBackAsWhatItAskedFor(parameters: SubscribeParameters) throws {
        #expect(try SubscribeParameters(parameters.request()) == parameters)
    }

    /// Only what differs from the defaults is sent, as a request written by hand would be.
    @Test func aRequestSaysOnlyWhatDiffersFromTheDefaults() {
        #expect(SubscribeParameters(events: [.angles], angleRate: 10).request(device: "ip:board")
                == ["events": .array([.string("angles")]), "angleRate": .integer(10), "device": .string("ip:board")])
        #expect(SubscribeParameters(events: [.deviceOrientationDidChange], orientations: [.portrait, .faceUp]).request()
                == ["events": .array([.string("deviceOrientationDidChange")]), "orientations": .array([.string("faceUp"), .string("portrait")])])
    }
}
