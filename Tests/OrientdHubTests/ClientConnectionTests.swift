import NIOCore
import NIOEmbedded
import OrientationCore
import OrientdProtocol
import Testing
@testable import OrientdHub

/// One connection at a time, in process: every reply and event a client sees, and the hostile
/// cases, without a socket or a sensor.
@Suite struct ClientConnectionTests {
    @Test func theHelloComesFirstThenRepliesInOrder() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"ping"}"# + "\n" + #"{"id":"two","method":"get"}"# + "\n")
        let lines = try client.received()
        #expect(lines.count == 3)
        #expect(lines.first?["event"]?.stringValue == "hello")
        #expect(lines.dropFirst().map(\.id) == [.integer(1), .string("two")])
        #expect(lines.last?.resultOrientation == "portrait")
    }

    /// Issue 13, D1: a client that sends a request and closes before reading the reply made the
    /// failed write close the connection in the middle of answering, and orientd died (SIGILL).
    @Test func aClientGoneBeforeItsReplyCrashesNothing() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        _ = try client.received()
        client.socket.closeOnNextWrite = true
        try client.send(#"{"id":1,"method":"ping"}"# + "\n" + #"{"id":2,"method":"status"}"# + "\n" + #"{"id":3,"method":"get"}"# + "\n")
        #expect(!client.isOpen)
        #expect(harness.clients.connected == 0)

        let next = try harness.connect()
        try next.send(#"{"id":4,"method":"ping"}"# + "\n")
        #expect(try next.received().last?.id == .integer(4))
    }

    /// A client gone before the kernel says so: after one reply fails, nothing more is encoded
    /// for it (a flood of requests drained at its close once cost every other client seconds).
    @Test func afterAFailedReplyNothingMoreIsAnswered() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        _ = try client.received()
        client.socket.failWrites = true
        let writesBefore = client.socket.writes
        try client.send(String(repeating: #"{"id":1,"method":"status"}"# + "\n", count: 100))
        #expect(client.socket.writes == writesBefore + 1)
        #expect(!client.isOpen)
    }

    /// A client that ends its input after its requests (`echo … | socat`) is answered, then closed.
    @Test func aClientThatEndsItsInputIsAnsweredThenClosed() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        harness.hub.sensorPaused()
        let client = try harness.connect()
        _ = try client.received()
        try client.send(#"{"id":1,"method":"get"}"# + "\n" + #"{"id":2,"method":"ping"}"# + "\n")
        client.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        harness.loop.run()
        #expect(client.isOpen, "the get still waits for its reading")
        harness.hub.sensorRead(at: harness.now)
        harness.loop.run()
        #expect(try client.received().map(\.id) == [.integer(1), .integer(2)])
        #expect(!client.isOpen)
    }

    @Test func aClientGoneWhileItsGetWaitsForTheSensor() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        harness.hub.sensorPaused()
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"get"}"# + "\n" + #"{"id":2,"method":"ping"}"# + "\n")
        try client.channel.close().wait()
        harness.hub.sensorRead(at: harness.now)
        harness.loop.advanceTime(by: .seconds(2))
        #expect(!client.isOpen)
        #expect(harness.clients.connected == 0)
    }

    @Test func requestsSentBeforeTheCredentialsAreKnownAreAnsweredAfterTheHello() throws {
        let harness = HubHarness()
        harness.sensorReads(.landscapeLeft)
        let credentials = harness.loop.makePromise(of: PeerCredentials?.self)
        let channel = EmbeddedChannel(loop: harness.loop)
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(BoundedLineDecoder(maximumLength: Wire.maximumRequestLength)))
        try channel.pipeline.syncOperations.addHandler(ClientConnection(
            hubs: harness.hubs, clients: harness.clients, sensorRate: 25, logger: HubHarness.quiet,
            credentials: { _ in credentials.futureResult }, now: { harness.now }))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/orientd-test")).wait()
        try channel.writeInbound(ByteBuffer(string: #"{"id":1,"method":"get"}"# + "\n"))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        credentials.succeed(HubHarness.user(1000))
        harness.loop.run()
        let hello = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: hello).contains(#""event":"hello""#))
        let reply = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(Wire.decode(reply.readableBytesView)?.resultOrientation == "landscapeLeft")
    }

    // MARK: Freshness

    /// A flood of gets answered from a recent reading asks the sensor for nothing fresh: a device
    /// watched still (its motion event slept on) is not read once per request.
    @Test func getsAnsweredFromARecentReadingAskForNoFreshReading() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        _ = try client.received()
        for id in 1...20 { try client.send(#"{"id":\#(id),"method":"get"}"# + "\n") }
        client.channel.read()
        #expect(try client.received().count == 20, "every get answered at once")
        #expect(harness.demand.requests == 20, "each keeps the sensor read for a while")
        #expect(harness.demand.freshRequests == 0, "none needs a fresh reading")
    }

    @Test func aGetWhileTheSensorSleepsWaitsForTheReadingAndTheRestWaitBehindIt() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        harness.hub.sensorPaused()
        let client = try harness.connect()
        _ = try client.received()
        let readsBefore = client.socket.reads
        try client.send(#"{"id":1,"method":"get"}"# + "\n" + #"{"id":2,"method":"ping"}"# + "\n")
        client.channel.read()
        #expect(try client.received().isEmpty)
        #expect(client.socket.reads == readsBefore, "nothing more is read while a request waits")
        #expect(harness.demand.requests == 1, "the get wakes the sensor")
        #expect(harness.demand.freshRequests == 1, "for a fresh reading")

        harness.hub.publish(.landscapeRight, at: 2)
        harness.hub.sensorRead(at: harness.now)
        harness.loop.run()
        let lines = try client.received()
        #expect(lines.map(\.id) == [.integer(1), .integer(2)])
        #expect(lines.first?.resultOrientation == "landscapeRight")
        #expect(client.socket.reads == readsBefore + 1, "the held-back read goes through once all is answered")
    }

    @Test func aGetTheSensorNeverAnswersIsAnsweredAfterTheTimeoutWithWhatIsKnown() throws {
        let harness = HubHarness()
        harness.sensorReads(.faceUp)
        harness.hub.sensorPaused()
        let client = try harness.connect()
        _ = try client.received()
        try client.send(#"{"id":1,"method":"get"}"# + "\n")
        harness.loop.advanceTime(by: ClientConnection.freshnessTimeout - .milliseconds(1))
        #expect(try client.received().isEmpty)
        harness.loop.advanceTime(by: .milliseconds(1))
        #expect(try client.received().first?.resultOrientation == "faceUp")
    }

    /// Issue 13, D10: `get`s queued while orientd was stopped (SIGSTOP) were answered at SIGCONT
    /// with the orientation from before the stop. A reading older than a few polls is stale.
    @Test func aGetAfterTheDaemonWasStoppedWaitsForAFreshReading() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        _ = try client.received()
        harness.now = harness.now + .milliseconds(400)
        try client.send(#"{"id":1,"method":"get"}"# + "\n")
        #expect(try client.received().first?.resultOrientation == "portrait", "a reading 400 ms old is fresh")

        harness.now = harness.now + .seconds(30)
        try client.send(#"{"id":2,"method":"get"}"# + "\n")
        #expect(try client.received().isEmpty, "a reading 30 s old is not")
        harness.hub.publish(.landscapeLeft, at: 3)
        harness.hub.sensorRead(at: harness.now)
        harness.loop.run()
        #expect(try client.received().first?.resultOrientation == "landscapeLeft")
    }

    @Test func withoutASensorAGetIsAnsweredAtOnce() throws {
        let harness = HubHarness()
        harness.hub.sensorLost(reason: "no accelerometer")
        let client = try harness.connect()
        _ = try client.received()
        try client.send(#"{"id":1,"method":"get"}"# + "\n")
        #expect(try client.received().first?.resultOrientation == "unknown")
    }

    // MARK: Slow and hostile clients

    @Test func anOverlongLineIsRefusedAfterTheRepliesBeforeIt() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        harness.hub.sensorPaused()
        let client = try harness.connect()
        _ = try client.received()
        try client.send(#"{"id":1,"method":"get"}"# + "\n" + String(repeating: "x", count: Wire.maximumRequestLength + 10))
        #expect(try client.received().isEmpty)
        harness.hub.sensorRead(at: harness.now)
        harness.loop.run()
        let lines = try client.received()
        #expect(lines.map(\.id) == [.integer(1), nil])
        #expect(lines.last?.errorCode == "request-too-long")
        #expect(!client.isOpen)
    }

    @Test func aStalledSubscriberEndsWithTheLatestStateOnly() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"subscribe"}"# + "\n")
        #expect(try client.received().last?.resultOrientation == "portrait")
        client.stallReading()
        for (index, orientation) in [Orientation.landscapeLeft, .portraitUpsideDown, .landscapeRight].enumerated() {
            harness.hub.publish(orientation, at: Double(10 + index))
        }
        harness.loop.run()
        #expect(try client.received().isEmpty)
        client.resumeReading()
        let events = try client.received()
        #expect(events.count == 1)
        #expect(events.first?["orientation"]?.stringValue == "landscapeRight")
        #expect(events.first?["previous"]?.stringValue == "portrait", "previous is what this client was last told")
    }

    @Test func aStalledAngleReaderGetsTheNewestSamplesAndTheCountOfTheRest() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"subscribe","events":["angles"]}"# + "\n")
        _ = try client.received()
        client.stallReading()
        let extra = 5
        for index in 0..<(Subscription.angleQueueCapacity + extra) {
            harness.hub.publishAngles(OrientationAngles(of: Vector3(0, 9.81, 0)), acceleration: Vector3(0, 9.81, 0),
                                      time: Double(index), timestamp: Double(index))
        }
        harness.loop.run()
        client.resumeReading()
        let samples = try client.received().filter { $0["event"]?.stringValue == "angles" }
        #expect(samples.count == Subscription.angleQueueCapacity)
        #expect(samples.first?["dropped"] == .integer(Int64(extra)))
        #expect(samples.first?["timestamp"] == .integer(Int64(extra)))
        #expect(samples.dropFirst().allSatisfy { $0["dropped"] == .integer(0) })
    }

    @Test func aClientThatSendsButNeverReadsIsClosed() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        client.stallReading()
        let ping = #"{"id":1,"method":"ping"}"# + "\n"
        var sent = 0
        while client.isOpen, sent < 2 * ClientConnection.queuedBytesLimit {
            try client.send(ping)
            sent += ping.utf8.count
        }
        #expect(!client.isOpen)
        #expect(harness.clients.connected == 0)
    }

    @Test func subscribersHoldTheSensorUntilTheyLeave() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"subscribe"}"# + "\n")
        try client.send(#"{"id":2,"method":"subscribe","events":["rotationLockDidChange"]}"# + "\n")
        #expect(harness.demand.holds == 1, "a lock-only subscription needs no readings")
        #expect(harness.demand.releases == 1)
        try client.send(#"{"id":3,"method":"subscribe"}"# + "\n")
        try client.channel.close().wait()
        #expect(harness.demand.holds == 2)
        #expect(harness.demand.releases == 2)
        #expect(harness.hub.status(clients: 0).subscribers == 0)
    }

    // MARK: Every error code

    @Test("errors", arguments: [
        ("nope", "invalid-json"),
        ("[1]", "invalid-request"),
        (#"{"id":1}"#, "invalid-request"),
        (#"{"id":1,"method":"fly"}"#, "unknown-method"),
        (#"{"id":1,"method":"subscribe","events":["nope"]}"#, "invalid-params"),
        (#"{"id":1,"method":"get","device":7}"#, "invalid-params"),
        (#"{"id":1,"method":"get","device":"ip:192.0.2.1"}"#, "unknown-device"),
        (#"{"id":1,"method":"lock"}"#, "permission-denied"),
    ])
    func errorCodes(request: String, code: String) throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect(as: HubHarness.user(1000))
        _ = try client.received()
        try client.send(request + "\n")
        let reply = try #require(client.received().first)
        #expect(reply.errorCode == code)
        #expect(client.isOpen, "a bad request does not end the connection")
        try client.send(#"{"id":9,"method":"ping"}"# + "\n")
        #expect(try client.received().first?.id == .integer(9))
    }

    @Test func tooManyClientsAreToldSoAndClosed() throws {
        let harness = HubHarness(maximumClients: 5, maximumClientsPerUser: 1)
        harness.sensorReads(.portrait)
        let first = try harness.connect(as: HubHarness.user(1000))
        let second = try harness.connect(as: HubHarness.user(1000))
        #expect(try second.received().first?.errorCode == "too-many-clients")
        #expect(!second.isOpen)
        #expect(first.isOpen)
        let root = try harness.connect(as: HubHarness.user(0))
        #expect(try root.received().first?["event"]?.stringValue == "hello", "root is held only to the overall maximum")
        #expect(harness.clients.connected == 2)
    }

    @Test func rootMayLockAndEveryoneHearsOfIt() throws {
        let harness = HubHarness()
        harness.sensorReads(.landscapeLeft)
        let listener = try harness.connect()
        try listener.send(#"{"id":1,"method":"subscribe","events":["rotationLockDidChange"]}"# + "\n")
        _ = try listener.received()
        let root = try harness.connect(as: HubHarness.user(0))
        try root.send(#"{"id":2,"method":"lock"}"# + "\n")
        #expect(try root.received().last?["result"]?["locked"] == JSONValue.bool(true))
        harness.loop.run()
        #expect(try listener.received().first?["locked"] == JSONValue.bool(true))
    }
}
